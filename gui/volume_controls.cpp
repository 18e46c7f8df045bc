// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/volume_controls.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "gui/viewport.hpp"

namespace cf::gui {

namespace {
const char* const kAxisNames[3] = {"x", "y", "z"};

QString number(double v) {
    return QLocale::c().toString(v, 'g', 6);
}
}  // namespace

VolumeControls::VolumeControls(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    title_ = new QLabel(this);
    title_->setObjectName("volumeTitle");
    title_->setWordWrap(true);
    layout->addWidget(title_);

    auto* grid = new QGridLayout;
    grid->setColumnStretch(1, 1);
    volumeLabel_ = new QLabel(tr("Volume"), this);
    grid->addWidget(volumeLabel_, 0, 0);
    volume_ = new QComboBox(this);
    volume_->setObjectName("volumeView");
    volume_->setToolTip(tr("Which of the model's volume views the slices show"));
    grid->addWidget(volume_, 0, 1, 1, 2);
    connect(volume_, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        if (!name.isEmpty()) emit volumeChosen(name);
    });
    auto* channelLabel = new QLabel(tr("Channel"), this);
    grid->addWidget(channelLabel, 1, 0);
    channel_ = new QComboBox(this);
    channel_->setObjectName("volumeChannel");
    channel_->setToolTip(tr("What the slices show: a category per voxel or a scalar field"));
    grid->addWidget(channel_, 1, 1, 1, 2);
    connect(channel_, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        if (!name.isEmpty()) emit channelChosen(name);
    });
    for (int a = 0; a < 3; ++a) {
        const QString axis = kAxisNames[a];
        checks_[a] = new QCheckBox(axis, this);
        checks_[a]->setObjectName("sliceCheck:" + axis);
        checks_[a]->setToolTip(tr("Show the slice across %1").arg(axis));
        sliders_[a] = new QSlider(Qt::Horizontal, this);
        sliders_[a]->setObjectName("slice:" + axis);
        sliders_[a]->setToolTip(tr("Which layer of voxels the %1 slice shows").arg(axis));
        values_[a] = new QLabel(this);
        values_[a]->setObjectName("sliceValue:" + axis);
        values_[a]->setMinimumWidth(fontMetrics().horizontalAdvance("x = -0.000000 (999/999)"));
        grid->addWidget(checks_[a], a + 2, 0);
        grid->addWidget(sliders_[a], a + 2, 1);
        grid->addWidget(values_[a], a + 2, 2);
        connect(sliders_[a], &QSlider::valueChanged, this, [this, a](int v) { sliderMoved(a, v); });
        connect(checks_[a], &QCheckBox::toggled, this, [this, a](bool on) { checkToggled(a, on); });
    }
    layout->addLayout(grid);
    layout->addStretch(1);
    setVolume(app::VolumeInfo{});
}

QString VolumeControls::channel() const {
    return channel_->currentText();
}

int VolumeControls::layerOf(int axis, double coordinate) const {
    const auto a = static_cast<std::size_t>(axis);
    const int n = std::max(1, info_.dims[a]);
    const double span = info_.hi[a] - info_.lo[a];
    if (!(span > 0.0)) return 0;
    const double f = (coordinate - info_.lo[a]) / span * n - 0.5;
    return std::clamp(static_cast<int>(std::lround(f)), 0, n - 1);
}

double VolumeControls::layerCentre(int axis, int layer) const {
    const auto a = static_cast<std::size_t>(axis);
    const int n = std::max(1, info_.dims[a]);
    return info_.lo[a] + (layer + 0.5) * (info_.hi[a] - info_.lo[a]) / n;
}

void VolumeControls::setVolume(const app::VolumeInfo& info) {
    info_ = info;
    const bool present = !info.name.empty();
    setEnabled(present);
    if (present)
        title_->setText(tr("<b>%1</b>: %2 × %3 × %4 voxels over [%5, %6] × [%7, %8] × [%9, %10]")
                            .arg(QString::fromStdString(info.name))
                            .arg(info.dims[0])
                            .arg(info.dims[1])
                            .arg(info.dims[2])
                            .arg(number(info.lo[0]), number(info.hi[0]), number(info.lo[1]),
                                 number(info.hi[1]), number(info.lo[2]), number(info.hi[2])));
    else
        title_->setText(tr("This model has no volume view."));
    {
        // With one volume there is nothing to choose: the combo stays out of the way.
        const bool choice = info.volumes.size() >= 2;
        volumeLabel_->setVisible(choice);
        volume_->setVisible(choice);
        const QSignalBlocker block(volume_);
        volume_->clear();
        for (const std::string& v : info.volumes)
            volume_->addItem(QString::fromStdString(v));
        volume_->setCurrentIndex(volume_->findText(QString::fromStdString(info.name)));
    }
    {
        const QSignalBlocker block(channel_);
        channel_->clear();
        for (const std::string& c : info.channels)
            channel_->addItem(QString::fromStdString(c));
        channel_->setCurrentIndex(channel_->findText(QString::fromStdString(info.shownChannel)));
    }
    for (int a = 0; a < 3; ++a) {
        const QSignalBlocker block(sliders_[a]);
        sliders_[a]->setRange(0, std::max(0, info.dims[static_cast<std::size_t>(a)] - 1));
        sliders_[a]->setPageStep(std::max(1, info.dims[static_cast<std::size_t>(a)] / 8));
        refreshAxis(a);
    }
}

void VolumeControls::setSlices(const app::SliceSettings& slices) {
    slices_ = slices;
    for (int a = 0; a < 3; ++a)
        refreshAxis(a);
}

void VolumeControls::refreshAxis(int axis) {
    const app::SliceSetting& s = slices_[static_cast<std::size_t>(axis)];
    const auto a = static_cast<std::size_t>(axis);
    const double coordinate = s.mode == app::SliceSetting::Mode::At
                                  ? std::clamp(s.coordinate, info_.lo[a], info_.hi[a])
                                  : 0.5 * (info_.lo[a] + info_.hi[a]);
    const int layer = layerOf(axis, coordinate);
    const QSignalBlocker b1(sliders_[a]), b2(checks_[a]);
    checks_[a]->setChecked(s.mode != app::SliceSetting::Mode::Off);
    sliders_[a]->setValue(layer);
    sliders_[a]->setEnabled(s.mode != app::SliceSetting::Mode::Off);
    values_[a]->setText(QString("%1 = %2 (%3/%4)")
                            .arg(kAxisNames[a], number(coordinate))
                            .arg(layer + 1)
                            .arg(std::max(1, info_.dims[a])));
}

void VolumeControls::sliderMoved(int axis, int layer) {
    app::SliceSetting& s = slices_[static_cast<std::size_t>(axis)];
    s.mode = app::SliceSetting::Mode::At;
    s.coordinate = layerCentre(axis, layer);
    refreshAxis(axis);
    emit slicesChanged();
}

void bindVolumeControls(VolumeControls& controls, Viewport& viewport) {
    Viewport* v = &viewport;
    VolumeControls* c = &controls;
    QObject::connect(v, &Viewport::volumeChanged, c, [v, c] { c->setVolume(v->volumeInfo()); });
    QObject::connect(c, &VolumeControls::volumeChosen, v,
                     [v](const QString& name) { v->setVolumeView(name.toStdString()); });
    QObject::connect(c, &VolumeControls::channelChosen, v,
                     [v](const QString& name) { v->setVolumeChannel(name.toStdString()); });
    QObject::connect(c, &VolumeControls::slicesChanged, v, [v, c] { v->setSlices(c->slices()); });
    c->setVolume(v->volumeInfo());
    c->setSlices(v->slices());
}

void VolumeControls::checkToggled(int axis, bool on) {
    app::SliceSetting& s = slices_[static_cast<std::size_t>(axis)];
    if (!on) {
        s.mode = app::SliceSetting::Mode::Off;
    } else {  // back where the slider is
        s.mode = app::SliceSetting::Mode::At;
        s.coordinate = layerCentre(axis, sliders_[static_cast<std::size_t>(axis)]->value());
    }
    refreshAxis(axis);
    emit slicesChanged();
}

}  // namespace cf::gui
