// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/vector_controls.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "gui/viewport.hpp"

namespace cf::gui {

namespace {
// The mode combo's entries, in order.
enum Mode { Off = 0, Arrows = 1, Lic = 2, LicArrows = 3 };

int modeOf(const app::VectorSettings& s) {
    if (s.lic) return s.arrows ? LicArrows : Lic;
    return s.arrows ? Arrows : Off;
}
}  // namespace

VectorControls::VectorControls(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    title_ = new QLabel(this);
    title_->setObjectName("vectorTitle");
    title_->setWordWrap(true);
    layout->addWidget(title_);

    auto* form = new QFormLayout;
    view_ = new QComboBox(this);
    view_->setObjectName("vectorView");
    view_->setToolTip(tr("Which vector field of the model is drawn"));
    form->addRow(tr("Field"), view_);
    mode_ = new QComboBox(this);
    mode_->setObjectName("vectorMode");
    mode_->addItems({tr("Off"), tr("Arrows"), tr("LIC"), tr("LIC + arrows")});
    mode_->setToolTip(
        tr("Arrows at every k-th node, or a line-integral convolution (streaks along the "
           "field, coloured by its magnitude) of a planar field"));
    form->addRow(tr("Draw"), mode_);
    stride_ = new QSpinBox(this);
    stride_->setObjectName("vectorStride");
    stride_->setRange(0, 256);
    stride_->setSpecialValueText(tr("auto"));  // 0: about 32 arrows along the longest axis
    stride_->setToolTip(tr("An arrow at every k-th node along each axis"));
    form->addRow(tr("Every k-th node"), stride_);
    layout->addLayout(form);
    layout->addStretch(1);

    connect(view_, &QComboBox::currentTextChanged, this, [this] { readWidgets(); });
    connect(mode_, &QComboBox::currentIndexChanged, this, [this] { readWidgets(); });
    connect(stride_, &QSpinBox::valueChanged, this, [this] { readWidgets(); });
    setViews({});
    setSettings(settings_);
}

void VectorControls::setViews(const std::vector<std::string>& names) {
    setEnabled(!names.empty());
    title_->setText(names.empty()
                        ? tr("This model has no vector view.")
                        : tr("%n vector view(s)", nullptr, static_cast<int>(names.size())));
    const QSignalBlocker block(view_);
    view_->clear();
    for (const std::string& n : names)
        view_->addItem(QString::fromStdString(n));
    const int i = view_->findText(QString::fromStdString(settings_.view));
    view_->setCurrentIndex(i >= 0 ? i : 0);  // an unknown name: the viewport draws the first
}

void VectorControls::setSettings(const app::VectorSettings& settings) {
    settings_ = settings;
    const QSignalBlocker b1(view_), b2(mode_), b3(stride_);
    const int i = view_->findText(QString::fromStdString(settings.view));
    if (i >= 0) view_->setCurrentIndex(i);
    mode_->setCurrentIndex(modeOf(settings));
    stride_->setValue(settings.stride);
    stride_->setEnabled(settings.arrows);
}

void VectorControls::readWidgets() {
    settings_.view = view_->currentText().toStdString();
    const int mode = mode_->currentIndex();
    settings_.arrows = mode == Arrows || mode == LicArrows;
    settings_.lic = mode == Lic || mode == LicArrows;
    settings_.stride = stride_->value();
    stride_->setEnabled(settings_.arrows);
    emit settingsChanged();
}

void bindVectorControls(VectorControls& controls, Viewport& viewport) {
    Viewport* v = &viewport;
    VectorControls* c = &controls;
    QObject::connect(v, &Viewport::vectorViewsChanged, c,
                     [v, c] { c->setViews(v->vectorViews()); });
    QObject::connect(c, &VectorControls::settingsChanged, v,
                     [v, c] { v->setVectorSettings(c->settings()); });
    c->setViews(v->vectorViews());
    c->setSettings(v->vectorSettings());
}

}  // namespace cf::gui
