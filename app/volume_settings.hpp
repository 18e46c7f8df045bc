// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How a volume view is shown, without GL: where the three axis-aligned slices go (the
// headless run's --slices, the window's volume controls) and what a volume offers (its
// size, box and channels) for the controls to list.
#include <array>
#include <string>
#include <vector>

#include "sim/core/views.hpp"

namespace cf::app {

// Where one axis-aligned slice goes: the box centre, a coordinate in model units (clamped
// to the box when drawn), or nowhere.
struct SliceSetting {
    enum class Mode { Centre, At, Off };
    Mode mode = Mode::Centre;
    double coordinate = 0.0;  // Mode::At only

    bool operator==(const SliceSetting&) const = default;
};
using SliceSettings = std::array<SliceSetting, 3>;  // x, y, z; all at the centre by default

// "X,Y,Z", each a number in model units, "mid" (the box centre) or "off", e.g. "12.5,mid,off".
// Throws ParameterError naming the option and the entry that cannot be read.
SliceSettings parseSlices(const std::string& text);
// The same text back ("12.5,mid,off").
std::string formatSlices(const SliceSettings& slices);

// The channel names of a volume: categories first, then scalars (the order clouds use).
std::vector<std::string> volumeChannels(const VolumeView& view);

// The name a volume is listed and chosen by ("volume" for an unnamed one).
std::string volumeName(const VolumeView& view);
// The names of the model's volume views, in order.
std::vector<std::string> volumeViewNames(const ModelViews& views);
// "a, b, c" for messages that list what there is; "none" for an empty list.
std::string joinedNames(const std::vector<std::string>& names);
// The volume called `name` (empty: the first). Throws ParameterError, prefixed by `option`
// (e.g. "--volume: "), naming the volumes there are.
const VolumeView& findVolumeView(const ModelViews& views, const std::string& name,
                                 const std::string& option);

// What a shown volume offers; name empty when there is none.
struct VolumeInfo {
    std::string name;
    std::vector<std::string> volumes;  // every volume of the model (name is one of them)
    std::array<int, 3> dims{0, 0, 0};
    std::array<double, 3> lo{0, 0, 0}, hi{1, 1, 1};
    std::vector<std::string> channels;
    std::string shownChannel;  // the channel the slices show now

    bool operator==(const VolumeInfo&) const = default;
};
VolumeInfo describeVolume(const VolumeView& view, const std::string& shownChannel);
// The same, listing the model's volumes (`views`) beside the shown one.
VolumeInfo describeVolume(const ModelViews& views, const VolumeView& view,
                          const std::string& shownChannel);

}  // namespace cf::app
