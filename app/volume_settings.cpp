// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/volume_settings.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "sim/core/errors.hpp"

namespace cf::app {

namespace {

std::string trimmed(std::string s) {
    const auto notSpace = [](unsigned char c) { return !std::isspace(c); };
    s.erase(s.begin(), std::find_if(s.begin(), s.end(), notSpace));
    s.erase(std::find_if(s.rbegin(), s.rend(), notSpace).base(), s.end());
    return s;
}

}  // namespace

SliceSettings parseSlices(const std::string& text) {
    SliceSettings out;
    std::size_t start = 0;
    for (int axis = 0; axis < 3; ++axis) {
        const std::size_t comma = text.find(',', start);
        if ((axis < 2) != (comma != std::string::npos))
            throw ParameterError("--slices '" + text +
                                 "': expected three entries X,Y,Z (a coordinate, mid or off)");
        const std::string entry = trimmed(
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        start = comma + 1;
        SliceSetting& s = out[static_cast<std::size_t>(axis)];
        if (entry == "mid" || entry.empty()) {
            s.mode = SliceSetting::Mode::Centre;
        } else if (entry == "off") {
            s.mode = SliceSetting::Mode::Off;
        } else {
            double x = 0.0;
            const auto [end, ec] = std::from_chars(entry.data(), entry.data() + entry.size(), x);
            if (ec != std::errc() || end != entry.data() + entry.size() || !std::isfinite(x))
                throw ParameterError("--slices '" + text + "': cannot read '" + entry + "' (" +
                                     "xyz"[axis] + ") as a coordinate, mid or off");
            s.mode = SliceSetting::Mode::At;
            s.coordinate = x;
        }
    }
    return out;
}

std::string formatSlices(const SliceSettings& slices) {
    std::string out;
    for (const SliceSetting& s : slices) {
        if (!out.empty()) out += ",";
        if (s.mode == SliceSetting::Mode::Centre) {
            out += "mid";
        } else if (s.mode == SliceSetting::Mode::Off) {
            out += "off";
        } else {
            char buf[32];
            const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, s.coordinate);
            out.append(buf, ec == std::errc() ? end : buf);
        }
    }
    return out;
}

std::vector<std::string> volumeChannels(const VolumeView& view) {
    std::vector<std::string> names;
    for (const auto& c : view.categories)
        names.push_back(c.name);
    for (const auto& s : view.scalars)
        names.push_back(s.name);
    return names;
}

std::string volumeName(const VolumeView& view) {
    return view.name.empty() ? std::string("volume") : view.name;
}

std::vector<std::string> volumeViewNames(const ModelViews& views) {
    std::vector<std::string> names;
    for (const VolumeView& v : views.volumes)
        names.push_back(volumeName(v));
    return names;
}

const VolumeView& findVolumeView(const ModelViews& views, const std::string& name,
                                 const std::string& option) {
    for (const VolumeView& v : views.volumes)
        if (name.empty() || volumeName(v) == name) return v;
    if (views.volumes.empty()) throw ParameterError(option + "the model offers no volume view");
    throw ParameterError(option + "no volume view '" + name +
                         "' (there are: " + joinedNames(volumeViewNames(views)) + ")");
}

VolumeInfo describeVolume(const ModelViews& views, const VolumeView& view,
                          const std::string& shownChannel) {
    VolumeInfo info = describeVolume(view, shownChannel);
    info.volumes = volumeViewNames(views);
    return info;
}

VolumeInfo describeVolume(const VolumeView& view, const std::string& shownChannel) {
    VolumeInfo info;
    info.name = volumeName(view);
    for (std::size_t a = 0; a < 3; ++a) {
        info.dims[a] = view.dims[a];
        info.lo[a] = view.lo[a];
        info.hi[a] = view.hi[a];
    }
    info.channels = volumeChannels(view);
    info.shownChannel = shownChannel;
    return info;
}

std::string joinedNames(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? "none" : out;
}

}  // namespace cf::app
