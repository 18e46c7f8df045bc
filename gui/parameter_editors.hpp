// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Spin boxes for parameter values that span many decades. RealSpinBox shows the shortest
// text that reads back to the same double ("0.0003", "1e-07", "20000"), in the C locale
// like scenario files, so tiny and huge values need no fixed number of decimals. Both
// step by one unit of the second significant digit (0.19 -> 0.2, 20000 -> 21000), which
// suits values anywhere in a wide range better than a fixed step.
#include <QDoubleSpinBox>
#include <QSpinBox>

namespace cf::gui {

class RealSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit RealSpinBox(QWidget* parent = nullptr);

    QString textFromValue(double value) const override;
    double valueFromText(const QString& text) const override;
    QValidator::State validate(QString& text, int& pos) const override;
    void stepBy(int steps) override;
    void fixup(QString& input) const override;
};

class IntegerSpinBox : public QSpinBox {
    Q_OBJECT
public:
    explicit IntegerSpinBox(QWidget* parent = nullptr);
    void stepBy(int steps) override;
};

// One unit of the second significant digit of `value` (0.1 for 1.0, 1000 for 20000);
// `fallback` for zero.
double relativeStep(double value, double fallback);

}  // namespace cf::gui
