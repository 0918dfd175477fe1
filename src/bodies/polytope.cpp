// Convex polytopes from face planes (each face clipped by the others) or from vertices (their
// convex hull), and their mass properties.
#include "bodies/polytope.hpp"

#include "bodies/shapes.hpp"
#include "core/text_format.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

namespace vfx {

namespace {

using glm::dmat3;

[[noreturn]] void rejectPolytope(const std::string& message) { throw std::invalid_argument(message); }

// Planes in double precision with unit normals: the geometry construction below needs the
// extra precision to classify vertices robustly.
struct PlaneD {
    dvec3 n;
    double d;
    double distance(const dvec3& p) const { return glm::dot(n, p) - d; }
};

std::vector<PlaneD> normalizedPlanes(const std::vector<Plane>& planes) {
    std::vector<PlaneD> out;
    out.reserve(planes.size());
    for (size_t i = 0; i < planes.size(); ++i) {
        const dvec3 n(planes[i].normal);
        const double len = glm::length(n);
        if (!std::isfinite(len) || !std::isfinite(planes[i].d))
            rejectPolytope("plane " + std::to_string(i) + " is not finite");
        if (len < 1e-12) rejectPolytope("plane " + std::to_string(i) + " has a zero normal");
        out.push_back({n / len, double(planes[i].d) / len});
    }
    return out;
}

// Length scale of a plane set, for tolerances.
double planeScale(const std::vector<PlaneD>& planes) {
    double scale = 0.0;
    for (const PlaneD& p : planes) scale = std::max(scale, std::abs(p.d));
    return std::max(scale, 1e-6);
}

// --- corners by clipping ----------------------------------------------------------------------

// Each face starts as a square this many plane scales across its plane, far beyond any corner
// of a bounded polytope; a face that still reaches half as far after clipping is open.
constexpr double kClipReach = 1e6;

// Face `face` of the region n.x <= d: its starting square clipped by every other plane
// (Sutherland-Hodgman). A face keeps a few corners, so this is O(n) per face.
std::vector<dvec3> clippedFace(const std::vector<PlaneD>& planes, size_t face, double reach, double tolerance) {
    const PlaneD& f = planes[face];
    const dvec3 helper = std::abs(f.n.x) < 0.9 ? dvec3(1, 0, 0) : dvec3(0, 1, 0);
    const dvec3 u = glm::normalize(glm::cross(f.n, helper)) * reach;
    const dvec3 v = glm::cross(f.n, u);
    const dvec3 o = f.n * f.d;
    std::vector<dvec3> polygon{o - u - v, o + u - v, o + u + v, o - u + v}, clipped;
    for (size_t j = 0; j < planes.size() && polygon.size() >= 3; ++j) {
        if (j == face) continue;
        clipped.clear();
        for (size_t a = 0; a < polygon.size(); ++a) {
            const dvec3& p = polygon[a];
            const dvec3& q = polygon[(a + 1) % polygon.size()];
            const double dp = planes[j].distance(p), dq = planes[j].distance(q);
            const bool pInside = dp <= tolerance, qInside = dq <= tolerance;
            if (pInside) clipped.push_back(p);
            if (pInside != qInside) clipped.push_back(p + (q - p) * std::clamp(dp / (dp - dq), 0.0, 1.0));
        }
        polygon.swap(clipped);
    }
    return polygon.size() >= 3 ? polygon : std::vector<dvec3>{};
}

// The intersection of planes i, j, k (Cramer's rule), or false when they meet in no single point.
bool triplePoint(const std::vector<PlaneD>& planes, size_t i, size_t j, size_t k, dvec3& point) {
    const dvec3 jk = glm::cross(planes[j].n, planes[k].n);
    const double det = glm::dot(planes[i].n, jk);
    if (std::abs(det) < 1e-9) return false;
    point = (planes[i].d * jk + planes[j].d * glm::cross(planes[k].n, planes[i].n) +
             planes[k].d * glm::cross(planes[i].n, planes[j].n)) /
            det;
    return true;
}

bool insideAll(const std::vector<PlaneD>& planes, const dvec3& p, double tolerance) {
    for (const PlaneD& plane : planes)
        if (plane.distance(p) > tolerance) return false;
    return true;
}

struct Corner {
    dvec3 position;
    std::array<size_t, 3> planes{SIZE_MAX, SIZE_MAX, SIZE_MAX};  // the first triple meeting there
};

// A corner as the first triple of its planes (in index order) gives it: the same position and
// order whatever the clipping's rounding, so a shape's corners do not depend on how they were found.
Corner canonicalCorner(const std::vector<PlaneD>& planes, const dvec3& found, double tolerance) {
    std::vector<size_t> through;
    for (size_t m = 0; m < planes.size(); ++m)
        if (std::abs(planes[m].distance(found)) <= 10.0 * tolerance) through.push_back(m);
    size_t tried = 0;
    for (size_t a = 0; a < through.size(); ++a)
        for (size_t b = a + 1; b < through.size(); ++b)
            for (size_t c = b + 1; c < through.size() && tried < 4096; ++c, ++tried) {
                dvec3 p;
                if (!triplePoint(planes, through[a], through[b], through[c], p)) continue;
                if (glm::length(p - found) <= 10.0 * tolerance && insideAll(planes, p, tolerance))
                    return {p, {through[a], through[b], through[c]}};
            }
    return {found, {SIZE_MAX, SIZE_MAX, SIZE_MAX}};
}

// Corners of the region, in the order of their first plane triples. Rejects a region some face
// of which is unbounded.
std::vector<dvec3> polytopeCorners(const std::vector<PlaneD>& planes) {
    const double scale = planeScale(planes);
    const double tolerance = 1e-7 * scale, reach = kClipReach * scale;
    std::vector<dvec3> found;
    for (size_t i = 0; i < planes.size(); ++i)
        for (const dvec3& p : clippedFace(planes, i, reach, tolerance)) {
            if (glm::length(p) > 0.5 * reach)
                rejectPolytope("planes do not bound a finite region (open along " + formatVec(vec3(glm::normalize(p))) +
                               ")");
            bool duplicate = false;
            for (const dvec3& q : found) duplicate = duplicate || glm::length(p - q) <= 10.0 * tolerance;
            if (!duplicate) found.push_back(p);
        }
    std::vector<Corner> corners;
    for (const dvec3& p : found) corners.push_back(canonicalCorner(planes, p, tolerance));
    std::stable_sort(corners.begin(), corners.end(),
                     [](const Corner& a, const Corner& b) { return a.planes < b.planes; });
    std::vector<dvec3> out;
    for (const Corner& c : corners) {
        bool duplicate = false;
        for (const dvec3& q : out) duplicate = duplicate || glm::length(c.position - q) <= 10.0 * tolerance;
        if (!duplicate) out.push_back(c.position);
    }
    return out;
}

// --- faces, mass and the shape ---------------------------------------------------------------------

// Corners lying on a plane, ordered counter-clockwise seen from outside (along +n).
std::vector<dvec3> faceLoop(const PlaneD& plane, const std::vector<dvec3>& corners, double tolerance) {
    std::vector<dvec3> face;
    for (const dvec3& c : corners)
        if (std::abs(plane.distance(c)) <= tolerance) face.push_back(c);
    if (face.size() < 3) return {};
    dvec3 centre(0.0);
    for (const dvec3& c : face) centre += c;
    centre /= double(face.size());
    const dvec3 u = glm::normalize(face[0] - centre);
    const dvec3 v = glm::cross(plane.n, u);
    std::sort(face.begin(), face.end(), [&](const dvec3& a, const dvec3& b) {
        return std::atan2(glm::dot(a - centre, v), glm::dot(a - centre, u)) <
               std::atan2(glm::dot(b - centre, v), glm::dot(b - centre, u));
    });
    return face;
}

// Sums tetrahedra (origin, a, b, c) over a fan triangulation of every face. For a tetrahedron
// with one corner at the origin, integral x x^T = V/20 (a a^T + b b^T + c c^T + s s^T), s = a+b+c.
PolytopeMass massOf(const std::vector<PlaneD>& planes, const std::vector<dvec3>& corners) {
    const double tolerance = 1e-6 * planeScale(planes);
    PolytopeMass mass;
    for (const PlaneD& plane : planes) {
        const std::vector<dvec3> face = faceLoop(plane, corners, tolerance);
        for (size_t t = 1; t + 1 < face.size(); ++t) {
            const dvec3 &a = face[0], &b = face[t], &c = face[t + 1];
            const double v = glm::dot(a, glm::cross(b, c)) / 6.0;
            const dvec3 s = a + b + c;
            mass.volume += v;
            mass.secondMoment += (v / 20.0) * (glm::outerProduct(a, a) + glm::outerProduct(b, b) +
                                               glm::outerProduct(c, c) + glm::outerProduct(s, s));
        }
    }
    return mass;
}

CollisionShape polytopeShape(const std::vector<PlaneD>& planes, const std::vector<dvec3>& corners, bool hole) {
    CollisionShape shape;
    shape.kind = ShapeKind::Polytope;
    shape.hole = hole;
    dvec3 centre(0.0);
    for (const dvec3& c : corners) centre += c;
    centre /= double(corners.size());
    shape.centre = vec3(centre);
    double inscribed = DBL_MAX, circumscribed = 0.0;
    for (const PlaneD& p : planes) {
        shape.planes.push_back({vec3(p.n), float(p.d)});
        inscribed = std::min(inscribed, -p.distance(centre));
    }
    for (const dvec3& c : corners) {
        shape.vertices.push_back(vec3(c));
        circumscribed = std::max(circumscribed, glm::length(c - centre));
    }
    shape.inscribedRadius = float(inscribed);
    // A hair larger so float rounding never lets the broad phase miss a corner.
    shape.circumscribedRadius = float(circumscribed * (1.0 + 1e-6));
    shape.cachedVolume = float(massOf(planes, corners).volume);
    return shape;
}

std::vector<PlaneD> toPlaneD(const std::vector<Plane>& planes) {
    std::vector<PlaneD> out;
    for (const Plane& p : planes) out.push_back({dvec3(p.normal), double(p.d)});
    return out;
}

std::vector<dvec3> toCornersD(const std::vector<vec3>& vertices) {
    std::vector<dvec3> out;
    for (const vec3& v : vertices) out.push_back(dvec3(v));
    return out;
}

// --- convex hull of vertices -----------------------------------------------------------------------

// A hull triangle: corner indices counter-clockwise seen from outside, and its plane.
struct HullFace {
    std::array<size_t, 3> v;
    dvec3 n;
    double d;
};

HullFace hullFace(const std::vector<dvec3>& pts, size_t a, size_t b, size_t c, const dvec3& inside) {
    dvec3 n = glm::normalize(glm::cross(pts[b] - pts[a], pts[c] - pts[a]));
    if (glm::dot(n, inside - pts[a]) > 0.0) return hullFace(pts, a, c, b, inside);
    return {{a, b, c}, n, glm::dot(n, pts[a])};
}

// Four points spanning a volume: the first, the farthest from it, the farthest from their line,
// the farthest from their plane. Rejects points that are all on one plane.
std::array<size_t, 4> startingTetrahedron(const std::vector<dvec3>& pts, double tolerance) {
    auto farthest = [&](auto&& distance) {
        size_t best = 0;
        for (size_t i = 1; i < pts.size(); ++i)
            if (distance(pts[i]) > distance(pts[best])) best = i;
        return best;
    };
    const size_t a = 0;
    const size_t b = farthest([&](const dvec3& p) { return glm::length(p - pts[a]); });
    const dvec3 line = glm::normalize(pts[b] - pts[a]);
    const size_t c = farthest([&](const dvec3& p) {
        const dvec3 r = p - pts[a];
        return glm::length(r - glm::dot(r, line) * line);
    });
    const dvec3 normal = glm::cross(pts[b] - pts[a], pts[c] - pts[a]);
    if (glm::length(normal) <= 0.0) rejectPolytope("vertices are collinear: they enclose no volume");
    const dvec3 n = glm::normalize(normal);
    const size_t d = farthest([&](const dvec3& p) { return std::abs(glm::dot(n, p - pts[a])); });
    if (std::abs(glm::dot(n, pts[d] - pts[a])) <= tolerance)
        rejectPolytope("vertices are coplanar: they enclose no volume");
    return {a, b, c, d};
}

// Adds point p to the hull: the faces it sees go, and the edges of their horizon join p.
// O(faces) per point, so O(n^2) for the whole hull.
void addHullPoint(const std::vector<dvec3>& pts, size_t p, const dvec3& inside, double tolerance,
                  std::vector<HullFace>& faces) {
    std::set<std::pair<size_t, size_t>> seenEdges;
    std::vector<HullFace> kept;
    for (const HullFace& f : faces) {
        if (glm::dot(f.n, pts[p]) - f.d > tolerance) {
            for (int e = 0; e < 3; ++e) seenEdges.insert({f.v[size_t(e)], f.v[size_t((e + 1) % 3)]});
        } else {
            kept.push_back(f);
        }
    }
    if (seenEdges.empty()) return;  // inside the hull (or on it)
    for (const auto& [a, b] : seenEdges)
        if (!seenEdges.count({b, a})) kept.push_back(hullFace(pts, a, b, p, inside));
    faces.swap(kept);
}

// The plane the first triple of points on a hull face spans (in index order), as the plane is
// written for any vertex order: n.x = d with n out of the solid.
std::pair<std::array<size_t, 3>, Plane> canonicalHullPlane(const std::vector<dvec3>& pts, const HullFace& face,
                                                           double scale, double tolerance) {
    std::vector<size_t> on;
    for (size_t i = 0; i < pts.size(); ++i)
        if (std::abs(glm::dot(face.n, pts[i]) - face.d) <= tolerance) on.push_back(i);
    for (size_t a = 0; a < on.size(); ++a)
        for (size_t b = a + 1; b < on.size(); ++b)
            for (size_t c = b + 1; c < on.size(); ++c) {
                const dvec3 &pi = pts[on[a]], &pj = pts[on[b]], &pk = pts[on[c]];
                dvec3 n = glm::cross(pj - pi, pk - pi);
                const double len = glm::length(n);
                if (len < 1e-9 * scale * scale) continue;
                n /= len;
                const double d = glm::dot(n, pi);
                const bool flip = glm::dot(n, face.n) < 0.0;
                return {{on[a], on[b], on[c]}, Plane{vec3(flip ? -n : n), float(flip ? -d : d)}};
            }
    return {{SIZE_MAX, SIZE_MAX, SIZE_MAX}, Plane{vec3(face.n), float(face.d)}};
}

// The incremental hull's result, checked: finite normals, every point inside every face, and
// closed (each edge in two faces, once each way).
bool isClosedHull(const std::vector<dvec3>& pts, const std::vector<HullFace>& faces, double tolerance) {
    std::set<std::pair<size_t, size_t>> edges;
    for (const HullFace& f : faces) {
        if (!std::isfinite(f.d) || !isFinite(vec3(f.n))) return false;
        for (const dvec3& p : pts)
            if (glm::dot(f.n, p) - f.d > tolerance) return false;
        for (int e = 0; e < 3; ++e)
            if (!edges.insert({f.v[size_t(e)], f.v[size_t((e + 1) % 3)]}).second) return false;
    }
    for (const auto& [a, b] : edges)
        if (!edges.count({b, a})) return false;
    return faces.size() >= 4;
}

// A triple of points spans a face plane when every point lies on one side: O(n^3), for the
// degenerate inputs (points nearly collinear with a hull edge) the incremental hull cannot settle.
std::vector<Plane> bruteForceHullPlanes(const std::vector<dvec3>& pts, double scale, double tolerance) {
    std::vector<Plane> faces;
    auto known = [&](const dvec3& n, double d) {
        for (const Plane& f : faces)
            if (glm::length(dvec3(f.normal) - n) < 1e-6 && std::abs(double(f.d) - d) < tolerance) return true;
        return false;
    };
    for (size_t i = 0; i < pts.size(); ++i)
        for (size_t j = i + 1; j < pts.size(); ++j)
            for (size_t k = j + 1; k < pts.size(); ++k) {
                dvec3 n = glm::cross(pts[j] - pts[i], pts[k] - pts[i]);
                const double len = glm::length(n);
                if (len < 1e-9 * scale * scale) continue;
                n /= len;
                const double d = glm::dot(n, pts[i]);
                bool above = false, below = false;
                for (size_t m = 0; m < pts.size() && !(above && below); ++m) {
                    const double side = glm::dot(n, pts[m]) - d;
                    above = above || side > tolerance;
                    below = below || side < -tolerance;
                }
                if (above && below) continue;
                if (above) n = -n;
                const double outward = above ? -d : d;
                if (!known(n, outward)) faces.push_back({vec3(n), float(outward)});
            }
    return faces;
}

// The hull's face planes (incremental hull), coplanar triangles merged, each face written by the
// first triple of points on it and the faces in the order of those triples.
std::vector<Plane> hullPlanes(const std::vector<dvec3>& pts, double scale, double tolerance) {
    const std::array<size_t, 4> t = startingTetrahedron(pts, tolerance);
    const dvec3 inside = 0.25 * (pts[t[0]] + pts[t[1]] + pts[t[2]] + pts[t[3]]);
    std::vector<HullFace> faces{hullFace(pts, t[0], t[1], t[2], inside), hullFace(pts, t[0], t[1], t[3], inside),
                                hullFace(pts, t[0], t[2], t[3], inside), hullFace(pts, t[1], t[2], t[3], inside)};
    for (size_t p = 0; p < pts.size(); ++p)
        if (p != t[0] && p != t[1] && p != t[2] && p != t[3]) addHullPoint(pts, p, inside, tolerance, faces);
    if (!isClosedHull(pts, faces, tolerance)) return bruteForceHullPlanes(pts, scale, tolerance);
    std::vector<std::pair<std::array<size_t, 3>, Plane>> planes;
    for (const HullFace& f : faces) planes.push_back(canonicalHullPlane(pts, f, scale, tolerance));
    std::stable_sort(planes.begin(), planes.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Plane> out;
    for (const auto& [key, plane] : planes) {
        bool known = false;
        for (const Plane& f : out)
            known = known || (glm::length(dvec3(f.normal) - dvec3(plane.normal)) < 1e-6 &&
                              std::abs(double(f.d) - double(plane.d)) < tolerance);
        if (!known) out.push_back(plane);
    }
    return out;
}

}  // namespace

CollisionShape makePolytopeFromPlanes(const std::vector<Plane>& planes, bool hole) {
    if (planes.size() < 4) rejectPolytope("a polytope needs at least 4 planes, got " + std::to_string(planes.size()));
    if (planes.size() > kMaxPolytopePlanes)
        rejectPolytope("a polytope takes at most " + std::to_string(kMaxPolytopePlanes) + " planes, got " +
                       std::to_string(planes.size()));
    const std::vector<PlaneD> unit = normalizedPlanes(planes);
    const std::vector<dvec3> corners = polytopeCorners(unit);
    if (corners.size() < 4) rejectPolytope("planes bound an empty or flat region (no interior)");
    CollisionShape shape = polytopeShape(unit, corners, hole);
    if (!(shape.inscribedRadius > 1e-6f * shape.circumscribedRadius) || !(shape.cachedVolume > 0.0f))
        rejectPolytope("planes bound an empty or flat region (no interior)");
    return shape;
}

CollisionShape makePolytopeFromVertices(const std::vector<vec3>& vertices, bool hole) {
    if (vertices.size() < 4)
        rejectPolytope("a polytope needs at least 4 vertices, got " + std::to_string(vertices.size()));
    if (vertices.size() > kMaxPolytopeVertices)
        rejectPolytope("a polytope takes at most " + std::to_string(kMaxPolytopeVertices) + " vertices, got " +
                       std::to_string(vertices.size()));
    for (size_t i = 0; i < vertices.size(); ++i)
        if (!isFinite(vertices[i])) rejectPolytope("vertex " + std::to_string(i) + " is not finite");
    const std::vector<dvec3> pts = toCornersD(vertices);
    double scale = 0.0;
    for (const dvec3& p : pts) scale = std::max(scale, glm::length(p - pts[0]));
    if (scale <= 0.0) rejectPolytope("vertices are all the same point");
    // The corner set is rebuilt from the hull's planes.
    return makePolytopeFromPlanes(hullPlanes(pts, scale, 1e-6 * scale), hole);
}

PolytopeMass polytopeMass(const std::vector<Plane>& planes, const std::vector<vec3>& corners) {
    return massOf(toPlaneD(planes), toCornersD(corners));
}

}  // namespace vfx
