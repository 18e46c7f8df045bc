// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/parameter_history.hpp"

#include <cstdio>
#include <ctime>
#include <sstream>
#include <variant>

namespace cf::gui {
namespace {

std::string jsonString(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\r':
                out += "\\r";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += c;
                }
        }
    }
    return out + "\"";
}

std::string jsonValue(const ParamValue& v) {
    // formatValue gives the shortest text that reads back exactly ("1e-07", "42", "true"),
    // which is valid JSON for numbers and booleans; validated values are always finite.
    if (std::holds_alternative<std::string>(v)) return jsonString(std::get<std::string>(v));
    return formatValue(v);
}

std::string isoTime(std::chrono::system_clock::time_point t) {
    using namespace std::chrono;
    const auto ms = duration_cast<milliseconds>(t.time_since_epoch()).count();
    const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char buf[96];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                  utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                  static_cast<int>(ms % 1000));
    return buf;
}

}  // namespace

std::string_view toString(ParamEdit::Kind kind) {
    switch (kind) {
        case ParamEdit::Kind::Edit:
            return "edit";
        case ParamEdit::Kind::Reset:
            return "reset";
        case ParamEdit::Kind::Undo:
            return "undo";
        case ParamEdit::Kind::Redo:
            return "redo";
    }
    return "edit";
}

std::string historyToJson(const std::vector<ParamEdit>& history) {
    std::ostringstream out;
    out << "[";
    for (std::size_t i = 0; i < history.size(); ++i) {
        const ParamEdit& e = history[i];
        out << (i ? ",\n " : "\n ") << "{\"time\": " << jsonString(isoTime(e.time))
            << ", \"key\": " << jsonString(e.key) << ", \"old\": " << jsonValue(e.oldValue)
            << ", \"new\": " << jsonValue(e.newValue) << ", \"kind\": \"" << toString(e.kind)
            << "\", \"undone\": " << (e.undone ? "true" : "false") << "}";
    }
    out << (history.empty() ? "]" : "\n]");
    return out.str();
}

}  // namespace cf::gui
