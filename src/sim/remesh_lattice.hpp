#pragma once
// Index arithmetic on the remeshing lattice (sim/remesh.hpp), shared by the remesher's files.
#include "core/math.hpp"

#include <cstddef>

namespace vfx::remesh_lattice {

template <typename Lattice>
size_t nodeIndex(const Lattice& l, int x, int y, int z) {
    return size_t(x) + size_t(l.dims.x) * (size_t(y) + size_t(l.dims.y) * size_t(z));
}

// Calls visit(index) for each face neighbour of node k inside the lattice.
template <typename Lattice, typename Visit>
void forEachFaceNeighbour(const Lattice& l, size_t k, Visit&& visit) {
    const size_t nx = size_t(l.dims.x), ny = size_t(l.dims.y);
    const ivec3 p(int(k % nx), int((k / nx) % ny), int(k / (nx * ny)));
    for (int axis = 0; axis < 3; ++axis)
        for (int side : {-1, 1}) {
            ivec3 q = p;
            q[axis] += side;
            if (q[axis] >= 0 && q[axis] < l.dims[axis]) visit(nodeIndex(l, q.x, q.y, q.z));
        }
}

}  // namespace vfx::remesh_lattice
