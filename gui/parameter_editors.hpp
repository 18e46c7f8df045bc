// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Spin boxes for parameter values that span many decades. RealSpinBox shows the shortest
// text that reads back to the same double ("0.0003", "1e-07", "20000"), in the C locale
// like scenario files, so tiny and huge values need no fixed number of decimals. Both
// step by one unit of the second significant digit (0.19 -> 0.2, 20000 -> 21000), which
// suits values anywhere in a wide range better than a fixed step.
//
// Neither clamps a typed value to the parameter's range: setParameterRange() keeps the
// range for the arrows, the wheel and the size of the box, while the box itself takes any
// number, so a value outside the range reaches the panel's validation and is refused there
// with the range (rather than silently becoming the nearest end).
#include <QDoubleSpinBox>
#include <QSpinBox>

namespace cf::gui {

class RealSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit RealSpinBox(QWidget* parent = nullptr);

    void setParameterRange(double min, double max);
    double parameterMinimum() const { return min_; }
    double parameterMaximum() const { return max_; }
    QSize sizeHint() const override;

    QString textFromValue(double value) const override;
    double valueFromText(const QString& text) const override;
    QValidator::State validate(QString& text, int& pos) const override;
    void stepBy(int steps) override;
    void fixup(QString& input) const override;

private:
    double min_ = 0.0;
    double max_ = 99.99;
};

class IntegerSpinBox : public QSpinBox {
    Q_OBJECT
public:
    explicit IntegerSpinBox(QWidget* parent = nullptr);
    void setParameterRange(int min, int max);
    int parameterMinimum() const { return min_; }
    int parameterMaximum() const { return max_; }
    QSize sizeHint() const override;
    void stepBy(int steps) override;

private:
    int min_ = 0;
    int max_ = 99;
};

// One unit of the second significant digit of `value` (0.1 for 1.0, 1000 for 20000);
// `fallback` for zero.
double relativeStep(double value, double fallback);

}  // namespace cf::gui
