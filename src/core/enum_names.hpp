#pragma once
// Spellings of an enum's values in scene files, on the command line and in the demo, declared
// once next to the enum: template <> struct EnumNames<E> { static const std::vector<std::string>& names(); };
// names()[i] spells the value E(i).
#include <stdexcept>
#include <string>
#include <vector>

namespace vfx {

template <typename E>
struct EnumNames;

// E's value spelled `name`; throws std::invalid_argument listing the choices when none is.
template <typename E>
E enumFromName(const std::string& name) {
    const std::vector<std::string>& names = EnumNames<E>::names();
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return E(i);
    std::string choices;
    for (size_t i = 0; i < names.size(); ++i) choices += (i ? ", " : "") + names[i];
    throw std::invalid_argument("must be one of " + choices + ", got \"" + name + "\"");
}

template <typename E>
const std::string& enumName(E value) {
    return EnumNames<E>::names()[size_t(value)];
}

}  // namespace vfx
