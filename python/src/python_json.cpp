#include "python_json.hpp"

#include <cmath>

namespace py = pybind11;
using nlohmann::json;

namespace vfx::python {

json jsonFromPython(py::handle value, const std::string& what) {
    if (value.is_none()) return nullptr;
    if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
    if (py::isinstance<py::int_>(value)) return value.cast<long long>();
    if (py::isinstance<py::float_>(value)) return value.cast<double>();
    if (py::isinstance<py::str>(value)) return value.cast<std::string>();
    if (py::isinstance<py::dict>(value)) {
        json object = json::object();
        for (const auto& item : value.cast<py::dict>()) {
            if (!py::isinstance<py::str>(item.first))
                throw py::type_error(what + ": keys must be strings, got " + py::repr(item.first).cast<std::string>());
            const std::string key = item.first.cast<std::string>();
            object[key] = jsonFromPython(item.second, what + "." + key);
        }
        return object;
    }
    if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
        json array = json::array();
        size_t index = 0;
        for (const py::handle item : value) array.push_back(jsonFromPython(item, what + "." + std::to_string(index++)));
        return array;
    }
    if (py::hasattr(value, "tolist")) return jsonFromPython(value.attr("tolist")(), what);  // NumPy
    throw py::type_error(what + ": expected a number, string, bool, list or dict, got " +
                         std::string(py::str(value.get_type().attr("__name__"))));
}

py::object pythonFromJson(const json& value) {
    switch (value.type()) {
        case json::value_t::null:
            return py::none();
        case json::value_t::boolean:
            return py::bool_(value.get<bool>());
        case json::value_t::number_integer:
            return py::int_(value.get<long long>());
        case json::value_t::number_unsigned:
            return py::int_(value.get<unsigned long long>());
        case json::value_t::number_float:
            return py::float_(value.get<double>());
        case json::value_t::string:
            return py::str(value.get<std::string>());
        case json::value_t::array: {
            py::list list;
            for (const json& item : value) list.append(pythonFromJson(item));
            return list;
        }
        case json::value_t::object: {
            py::dict dict;
            for (auto it = value.begin(); it != value.end(); ++it) dict[py::str(it.key())] = pythonFromJson(it.value());
            return dict;
        }
        default:
            return py::none();
    }
}

std::string overrideText(py::handle value, const std::string& what) {
    if (py::isinstance<py::str>(value)) return value.cast<std::string>();
    const json j = jsonFromPython(value, what);
    if (j.is_number_float() && !std::isfinite(j.get<double>())) {
        const double x = j.get<double>();
        return std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf";
    }
    return j.dump();
}

}  // namespace vfx::python
