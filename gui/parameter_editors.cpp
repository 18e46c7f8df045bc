// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/parameter_editors.hpp"

#include <QLineEdit>
#include <QLocale>
#include <QStyle>
#include <QStyleOptionSpinBox>
#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>

namespace cf::gui {

namespace {

// floor(log10(|v|)), robust against log10(0.001) coming out as -2.9999999999999996.
double decade(double v) {
    return std::floor(std::log10(std::abs(v)) + 1e-12);
}

bool isPowerOfTen(double v) {
    if (v == 0.0) return false;
    return std::abs(std::abs(v) / std::pow(10.0, decade(v)) - 1.0) < 1e-12;
}

// QAbstractSpinBox::sizeHint() measured for the parameter's range rather than the box's.
QSize spinSizeHint(const QAbstractSpinBox& box, const QLineEdit& edit, const QString& minText,
                   const QString& maxText) {
    const QFontMetrics fm(box.fontMetrics());
    int w = 0;
    for (QString s : {minText, maxText}) {
        s.truncate(18);
        w = std::max(w, fm.horizontalAdvance(s + u' '));
    }
    w += 2;  // cursor blinking space
    QStyleOptionSpinBox opt;
    opt.initFrom(&box);
    opt.buttonSymbols = box.buttonSymbols();
    opt.frame = box.hasFrame();
    opt.subControls = QStyle::SC_SpinBoxFrame | QStyle::SC_SpinBoxEditField;
    if (box.buttonSymbols() != QAbstractSpinBox::NoButtons)
        opt.subControls |= QStyle::SC_SpinBoxUp | QStyle::SC_SpinBoxDown;
    return box.style()->sizeFromContents(QStyle::CT_SpinBox, &opt,
                                         QSize(w, edit.sizeHint().height()), &box);
}

}  // namespace

double relativeStep(double value, double fallback) {
    if (value == 0.0 || !std::isfinite(value)) return fallback;
    return std::pow(10.0, decade(value) - 1.0);
}

RealSpinBox::RealSpinBox(QWidget* parent) : QDoubleSpinBox(parent) {
    // QDoubleSpinBox rounds every value to `decimals`; the maximum keeps doubles exact.
    setDecimals(323);
    setKeyboardTracking(false);  // one edit per Enter / focus change, not per keystroke
    setAccelerated(true);
    setRange(-std::numeric_limits<double>::max(), std::numeric_limits<double>::max());
}

void RealSpinBox::setParameterRange(double min, double max) {
    min_ = min;
    max_ = max;
    updateGeometry();
}

QSize RealSpinBox::sizeHint() const {
    ensurePolished();
    return spinSizeHint(*this, *lineEdit(), textFromValue(min_), textFromValue(max_));
}

QString RealSpinBox::textFromValue(double value) const {
    // Plain digits where they stay short ("0.0003", "20000"), exponents outside.
    const double a = std::abs(value);
    const bool plain = a == 0.0 || (a >= 1e-4 && a < 1e7);
    return QLocale::c().toString(value, plain ? 'f' : 'e', QLocale::FloatingPointShortest);
}

double RealSpinBox::valueFromText(const QString& text) const {
    return QLocale::c().toDouble(text.trimmed());
}

QValidator::State RealSpinBox::validate(QString& text, int& /*pos*/) const {
    const QString t = text.trimmed();
    if (t.isEmpty() || t == "-" || t == "+" || t == ".") return QValidator::Intermediate;
    bool ok = false;
    const double v = QLocale::c().toDouble(t, &ok);
    if (!ok) {
        // A number still being typed ("1e", "1e-", "2.") may become valid.
        const QChar last = t.back();
        if (last == 'e' || last == 'E' || last == '-' || last == '+' || last == '.') {
            QString completed = t;
            completed.chop(1);
            bool partOk = false;
            QLocale::c().toDouble(completed, &partOk);
            if (partOk || completed.endsWith('e') || completed.endsWith('E'))
                return QValidator::Intermediate;
        }
        return QValidator::Invalid;
    }
    // Any finite number: one outside the parameter's range is refused by the panel, with
    // the range, not clamped here.
    return std::isfinite(v) ? QValidator::Acceptable : QValidator::Invalid;
}

void RealSpinBox::fixup(QString& input) const {
    input = input.trimmed();  // nothing else: an unfinished number ("1e") stays as typed
}

void RealSpinBox::stepBy(int steps) {
    const double v = value();
    const double fallback = (max_ - min_) / 100.0;
    double step = relativeStep(v, fallback > 0 ? fallback : 1.0);
    // Stepping down from a power of ten lands on the finer grid below it (1 -> 0.99).
    if (steps < 0 && isPowerOfTen(v)) step /= 10.0;
    double next = std::round(v / step + steps) * step;
    next = QLocale::c().toDouble(QLocale::c().toString(next, 'g', 12));  // drop FP noise
    // The arrows stay in the range (from a value in it).
    setValue(std::clamp(next, min_, max_));
    selectAll();
}

IntegerSpinBox::IntegerSpinBox(QWidget* parent) : QSpinBox(parent) {
    setKeyboardTracking(false);
    setAccelerated(true);
    setRange(INT_MIN, INT_MAX);
}

void IntegerSpinBox::setParameterRange(int min, int max) {
    min_ = min;
    max_ = max;
    updateGeometry();
}

QSize IntegerSpinBox::sizeHint() const {
    ensurePolished();
    return spinSizeHint(*this, *lineEdit(), textFromValue(min_), textFromValue(max_));
}

void IntegerSpinBox::stepBy(int steps) {
    const double v = value();
    double step = std::max(1.0, relativeStep(v, 1.0));
    if (steps < 0 && v > 10 && isPowerOfTen(v)) step /= 10.0;
    const double next = std::round(v / step + steps) * step;
    setValue(
        static_cast<int>(std::clamp(next, static_cast<double>(min_), static_cast<double>(max_))));
    selectAll();
}

}  // namespace cf::gui
