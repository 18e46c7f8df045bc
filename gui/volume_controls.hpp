// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's controls for a model's volume views: which volume is drawn (a combo shown
// only when the model offers two or more), which channel the slices show and where the
// three axis-aligned slices are. Each axis has a check box (show the slice) and a
// slider over the voxel layers (the slice goes through the centres of a layer, so it shows
// that layer's voxels exactly), with the position in model units. The colour legend of the
// channel is drawn in the viewport. Without a volume the controls are disabled and say so.
#include <QString>
#include <QWidget>
#include <array>

#include "app/volume_settings.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;

namespace cf::gui {

class Viewport;

class VolumeControls : public QWidget {
    Q_OBJECT
public:
    explicit VolumeControls(QWidget* parent = nullptr);

    // What the viewport's volume offers (Viewport::volumeInfo()); name empty: none. The
    // slice settings are kept (a coordinate is shown at the layer nearest to it).
    void setVolume(const app::VolumeInfo& info);
    const app::VolumeInfo& volume() const { return info_; }
    // Shows these settings without emitting slicesChanged().
    void setSlices(const app::SliceSettings& slices);
    const app::SliceSettings& slices() const { return slices_; }
    QString channel() const;

    // The layer of axis `axis` whose centre is nearest to `coordinate`, and that centre.
    int layerOf(int axis, double coordinate) const;
    double layerCentre(int axis, int layer) const;

signals:
    void volumeChosen(const QString& name);
    void channelChosen(const QString& name);
    void slicesChanged();  // slices() holds the new settings

private:
    void refreshAxis(int axis);
    void sliderMoved(int axis, int layer);
    void checkToggled(int axis, bool on);

    app::VolumeInfo info_;
    app::SliceSettings slices_{};
    QLabel* title_ = nullptr;
    QLabel* volumeLabel_ = nullptr;
    QComboBox* volume_ = nullptr;
    QComboBox* channel_ = nullptr;
    std::array<QCheckBox*, 3> checks_{};
    std::array<QSlider*, 3> sliders_{};
    std::array<QLabel*, 3> values_{};
};

// Keeps the controls and the viewport in step: the controls list what the viewport's
// volume offers; the volume, channel and slices chosen go to the viewport.
void bindVolumeControls(VolumeControls& controls, Viewport& viewport);

}  // namespace cf::gui
