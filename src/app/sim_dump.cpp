#include "app/sim_dump.hpp"

#include <nlohmann/json.hpp>
#include <vortonfx/version.hpp>

#include <charconv>
#include <cmath>

namespace vfx {
namespace {

// Streams the struct-of-arrays dump; floats in their shortest form that reads back exactly.
class DumpWriter {
public:
    explicit DumpWriter(std::ostream& out) : out_(out) {}

    void write(const Simulation& sim) {
        out_ << "{\"vortonfx_version\":\"" VORTONFX_VERSION "\",\"step\":" << sim.stepCount()
             << ",\"time\":" << nlohmann::json(sim.time()).dump() << ",\n\"vortons\":{";
        writeVortons(sim.vortons());
        out_ << "},\n\"tracers\":{";
        vectors("position", sim.tracers().position);
        out_ << ",\n";
        scalars("density", sim.tracers().density);
        out_ << "},\n\"bodies\":[";
        for (size_t i = 0; i < sim.bodies().size(); ++i) {
            out_ << (i ? ",\n" : "\n");
            writeBody(sim.bodies()[i]);
        }
        out_ << "]}\n";
    }

private:
    void writeVortons(const Vortons& v) {
        vectors("position", v.position);
        out_ << ",\n";
        vectors("velocity", v.velocity);
        out_ << ",\n";
        vectors("vorticity", v.vorticity);
        out_ << ",\n";
        scalars("density", v.density);
        out_ << ",\n";
        scalars("radius", v.radius);
        out_ << ",\n";
        scalars("volume", v.volumes);
        out_ << ",\n";
        vectors("density_gradient", v.densityGradient);
    }
    void writeBody(const RigidBody& b) {
        out_ << "{\"name\":" << nlohmann::json(b.name).dump() << ",\"position\":";
        vec(b.position);
        out_ << ",\"velocity\":";
        vec(b.velocity);
        out_ << ",\"orientation\":[";
        real(b.orientation.w), out_ << ',', real(b.orientation.x), out_ << ',', real(b.orientation.y), out_ << ',',
            real(b.orientation.z);
        out_ << "]}";
    }
    void real(float x) {
        if (!std::isfinite(x)) {  // JSON has no NaN; a finite run never gets here
            out_ << "null";
            return;
        }
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, x);
        out_.write(buf, r.ptr - buf);
    }
    void vec(const vec3& p) {
        out_ << '[';
        real(p.x), out_ << ',', real(p.y), out_ << ',', real(p.z);
        out_ << ']';
    }
    void vectors(const char* key, const std::vector<vec3>& values) {
        out_ << '"' << key << "\":[";
        for (size_t i = 0; i < values.size(); ++i) {
            if (i) out_ << ',';
            vec(values[i]);
        }
        out_ << ']';
    }
    void scalars(const char* key, const std::vector<float>& values) {
        out_ << '"' << key << "\":[";
        for (size_t i = 0; i < values.size(); ++i) {
            if (i) out_ << ',';
            real(values[i]);
        }
        out_ << ']';
    }
    std::ostream& out_;
};

}  // namespace

void writeDump(AtomicFile& file, const Simulation& sim) {
    DumpWriter(file.stream()).write(sim);
    file.finishWriting();
}

}  // namespace vfx
