#pragma once
// Python objects <-> JSON: scene documents given as dicts, parameter values given as Python
// numbers, lists, tuples and NumPy arrays or scalars (anything with tolist()).
#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>

#include <string>

namespace vfx::python {

// dict, list, tuple, str, bool, int, float, None and objects with tolist(); raises TypeError
// naming `what` for anything else.
nlohmann::json jsonFromPython(pybind11::handle value, const std::string& what);
pybind11::object pythonFromJson(const nlohmann::json& value);

// A value as the text of a "path=value" override: strings as they are, numbers and arrays as
// JSON, NaN and infinities spelled so the scene's range check reports them.
std::string overrideText(pybind11::handle value, const std::string& what);

}  // namespace vfx::python
