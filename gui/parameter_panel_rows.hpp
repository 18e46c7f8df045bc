// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to the parameter panel (parameter_panel.cpp, parameter_panel_rows.cpp): the
// widgets of one row and of one group section, and the panel's colours.
#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QSlider>
#include <QString>
#include <QToolButton>
#include <string>
#include <vector>

#include "gui/parameter_editors.hpp"
#include "gui/parameter_panel.hpp"
#include "gui/parameter_slider_scale.hpp"
#include "gui/text_editors.hpp"

namespace cf::gui {

inline QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

struct ParameterPanel::Row {
    const ParamSpec* spec = nullptr;
    Section* section = nullptr;
    SliderScale scale;
    QWidget* nameCell = nullptr;
    QLabel* name = nullptr;
    QLabel* tag = nullptr;  // structural only
    QSlider* slider = nullptr;
    RealSpinBox* real = nullptr;
    IntegerSpinBox* integer = nullptr;
    QCheckBox* check = nullptr;
    QComboBox* combo = nullptr;
    TextParamEdit* text = nullptr;  // Text, TextKind::Plain
    FilePathEdit* path = nullptr;   // Text, TextKind::FilePath
    QLabel* unit = nullptr;
    QLabel* marker = nullptr;
    QToolButton* reset = nullptr;
    QString error;
    bool visible = true;

    std::vector<QWidget*> widgets() const {
        std::vector<QWidget*> all;
        for (QWidget* w : std::initializer_list<QWidget*>{nameCell, slider, real, integer, check,
                                                          combo, text, path, unit, marker, reset})
            if (w) all.push_back(w);
        return all;
    }
    QWidget* editor() const {
        if (real) return real;
        if (integer) return integer;
        if (check) return check;
        if (text) return text;
        if (path) return path;
        return combo;
    }
};

struct ParameterPanel::Section {
    std::string group;
    QWidget* box = nullptr;
    QToolButton* header = nullptr;
    QToolButton* reset = nullptr;
    QWidget* body = nullptr;
    QGridLayout* grid = nullptr;
    std::vector<Row*> rows;
};

}  // namespace cf::gui
