// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's controls for a model's vector views: which view is drawn, how (off, arrows,
// a line-integral convolution of a plane, or the LIC with arrows over it) and the arrow
// stride (every k-th node; "auto" keeps about 32 arrows along the longest axis). The
// colour legend of |v| is drawn in the viewport. Without vector views the controls are
// disabled and say so.
#include <QWidget>
#include <string>
#include <vector>

#include "app/vector_upload.hpp"

class QComboBox;
class QLabel;
class QSpinBox;

namespace cf::gui {

class Viewport;

class VectorControls : public QWidget {
    Q_OBJECT
public:
    explicit VectorControls(QWidget* parent = nullptr);

    // The names of the model's vector views (Viewport::vectorViews()); the chosen one is
    // kept when the new list has it.
    void setViews(const std::vector<std::string>& names);
    // Shows these settings without emitting settingsChanged().
    void setSettings(const app::VectorSettings& settings);
    const app::VectorSettings& settings() const { return settings_; }

signals:
    void settingsChanged();  // settings() holds the new ones

private:
    void readWidgets();

    app::VectorSettings settings_;
    QLabel* title_ = nullptr;
    QComboBox* view_ = nullptr;
    QComboBox* mode_ = nullptr;
    QSpinBox* stride_ = nullptr;
};

// Keeps the controls and the viewport in step.
void bindVectorControls(VectorControls& controls, Viewport& viewport);

}  // namespace cf::gui
