// SPDX-License-Identifier: GPL-3.0-or-later
// MetricsPlot: what the series hold, axis titles with units, bounded memory with the first
// and latest samples kept, repeated times ignored, CSV export byte for byte, clear().
#include <QAbstractAxis>
#include <QChart>
#include <QFile>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>
#include <cmath>
#include <limits>

#include "gui/plots_dock.hpp"
#include "sim/core/model.hpp"
#include "tests/gui/docks_test_support.hpp"

namespace cf::gui::test {

namespace {

QString axisTitle(QChart* chart, Qt::Orientation o) {
    const auto axes = chart->axes(o);
    return axes.isEmpty() ? QString() : axes.front()->titleText();
}

QStringList legendLabels(QChart* chart) {
    QStringList labels;
    for (QLegendMarker* m : chart->legend()->markers())
        labels << m->label();
    return labels;
}

}  // namespace

class PlotsDockTest : public QObject {
    Q_OBJECT
private slots:
    void seriesGetTheValues() {
        MetricsPlot plot;
        plot.addSample(0.0, {{"msd", "um^2", 1.5, ""}, {"pairs", "1", 2.0, ""}});
        plot.addSample(0.5, {{"msd", "um^2", 3.25, ""}, {"pairs", "1", 4.0, ""}});
        QCOMPARE(plot.metricNames(), QStringList({"msd", "pairs"}));
        QCOMPARE(plot.sampleCount(), 2);
        QLineSeries* msd = plot.series("msd");
        QVERIFY(msd != nullptr);
        QCOMPARE(msd->points(), QList<QPointF>({{0.0, 1.5}, {0.5, 3.25}}));
        QCOMPARE(plot.series("pairs")->points(), QList<QPointF>({{0.0, 2.0}, {0.5, 4.0}}));
        QCOMPARE(msd->name(), QString("msd"));
        QCOMPARE(legendLabels(plot.chartOf("msd")), QStringList({"msd"}));
        // The axes hold every point (autoscale), with some margin.
        auto* y = qobject_cast<QValueAxis*>(plot.chartOf("msd")->axes(Qt::Vertical).front());
        auto* x = qobject_cast<QValueAxis*>(plot.chartOf("msd")->axes(Qt::Horizontal).front());
        QVERIFY(y->min() < 1.5 && y->max() > 3.25);
        QCOMPARE(x->min(), 0.0);
        QCOMPARE(x->max(), 0.5);
    }

    void unitsInAxisTitles() {
        MetricsPlot plot;
        plot.setTimeUnit("s");
        plot.addSample(1.0, {{"msd", "um^2", 1, ""}, {"pairs", "1", 2, ""}, {"rg", "um^2", 3, ""}});
        QCOMPARE(plot.chartCount(), 3);  // one chart per metric by default
        QCOMPARE(axisTitle(plot.chartOf("msd"), Qt::Horizontal), QString("time [s]"));
        QCOMPARE(axisTitle(plot.chartOf("msd"), Qt::Vertical), QString("[um^2]"));
        QCOMPARE(axisTitle(plot.chartOf("pairs"), Qt::Vertical), QString("[1]"));

        plot.setGrouping(MetricsPlot::Grouping::PerUnit);
        QCOMPARE(plot.chartCount(), 2);
        QCOMPARE(plot.chartOf("msd"), plot.chartOf("rg"));  // same unit, same y axis
        QVERIFY(plot.chartOf("msd") != plot.chartOf("pairs"));
        QCOMPARE(legendLabels(plot.chartOf("msd")), QStringList({"msd", "rg"}));
        QCOMPARE(axisTitle(plot.chartOf("rg"), Qt::Vertical), QString("[um^2]"));
        QCOMPARE(plot.series("rg")->points(), QList<QPointF>({{1.0, 3.0}}));

        plot.setTimeUnit("min");
        QCOMPARE(axisTitle(plot.chartOf("pairs"), Qt::Horizontal), QString("time [min]"));
    }

    void hiddenMetricsAreRecordedButNotDrawn() {
        MetricsPlot plot;
        plot.addSample(0.0, {{"a", "1", 1, ""}, {"b", "1", 2, ""}});
        plot.setMetricVisible("b", false);
        QCOMPARE(plot.series("b"), nullptr);
        QCOMPARE(plot.chartCount(), 1);
        plot.addSample(1.0, {{"a", "1", 3, ""}, {"b", "1", 4, ""}});
        QCOMPARE(plot.values("b"), std::vector<double>({2.0, 4.0}));
        plot.setMetricVisible("b", true);
        QCOMPARE(plot.series("b")->points(), QList<QPointF>({{0.0, 2.0}, {1.0, 4.0}}));
    }

    void decimationKeepsFirstAndLatestAndBoundsTheCount() {
        MetricsPlot plot;
        plot.setMaxPointsPerSeries(100);
        const int n = 10000;
        for (int i = 0; i < n; ++i) {
            const double t = 0.1 * i;
            plot.addSample(t, {{"v", "1", 2.0 * i, ""}});
            QVERIFY2(plot.sampleCount() <= 100, qPrintable(QString::number(plot.sampleCount())));
            QCOMPARE(plot.sampleTimes().back(), t);  // the latest, exactly
            QCOMPARE(plot.series("v")->points().back(), QPointF(t, 2.0 * i));
        }
        const std::vector<double> times = plot.sampleTimes();
        const std::vector<double> values = plot.values("v");
        QCOMPARE(times.front(), 0.0);
        QCOMPARE(values.front(), 0.0);
        QCOMPARE(times.back(), 0.1 * (n - 1));
        QCOMPARE(values.back(), 2.0 * (n - 1));
        // Halving, not more: at least half the budget stays in use.
        QVERIFY(plot.sampleCount() >= 50);
        // Evenly spaced samples (on a grid of a power of two), then the latest.
        const double spacing = times[1] - times[0];
        for (std::size_t k = 1; k + 1 < times.size(); ++k)
            QVERIFY(std::abs(times[k] - times[k - 1] - spacing) < 1e-9);
        QVERIFY(times.back() - times[times.size() - 2] <= spacing + 1e-9);
        const int stride = static_cast<int>(std::lround(spacing / 0.1));
        QVERIFY(stride > 1 && (stride & (stride - 1)) == 0);
        // Each kept value belongs to its time (nothing shifted by the dropping).
        for (std::size_t k = 0; k < times.size(); ++k)
            QCOMPARE(values[k], 2.0 * std::lround(times[k] / 0.1));
        // The series shows exactly what is kept.
        const QList<QPointF> points = plot.series("v")->points();
        QCOMPARE(points.size(), plot.sampleCount());
        QCOMPARE(points.front(), QPointF(0.0, 0.0));
    }

    void repeatedTimeIsIgnoredAndEarlierTimeStartsOver() {
        MetricsPlot plot;
        plot.addSample(1.0, {{"a", "1", 1.0, ""}});
        plot.addSample(1.0, {{"a", "1", 2.0, ""}});  // the same frame again
        QCOMPARE(plot.sampleCount(), 1);
        QCOMPARE(plot.values("a"), std::vector<double>({1.0}));
        QCOMPARE(plot.series("a")->count(), 1);
        plot.addSample(2.0, {{"a", "1", 3.0, ""}});
        QCOMPARE(plot.sampleCount(), 2);
        plot.addSample(0.0, {{"a", "1", 7.0, ""}});  // reset: a new series
        QCOMPARE(plot.sampleTimes(), std::vector<double>({0.0}));
        QCOMPARE(plot.series("a")->points(), QList<QPointF>({{0.0, 7.0}}));
    }

    // A metric that jumps by eight orders of magnitude (0.0002 to 26000, as the brownian
    // MSD does in its first steps) re-scales at once: this once hung the window in Qt
    // Charts' tick layout. Bound: 5 s for three samples on a loaded machine.
    void hugeRangeChangesRescaleAtOnce() {
        MetricsPlot plot;
        plot.resize(600, 400);
        plot.show();
        QElapsedTimer clock;
        clock.start();
        plot.addSample(0.0, {{"msd", "um^2", 0.0001, ""}});
        plot.addSample(0.001, {{"msd", "um^2", 0.0002, ""}});
        QCoreApplication::processEvents();
        plot.addSample(0.01, {{"msd", "um^2", 26000.0, ""}});
        QCoreApplication::processEvents();
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString("%1 ms").arg(clock.elapsed())));
        QCOMPARE(plot.values("msd").back(), 26000.0);
    }

    void csvExportIsExact() {
        MetricsPlot plot;
        plot.setTimeUnit("s");
        plot.addSample(0.0, {{"msd", "um^2", 0.1, ""}, {"pairs, overlapping", "1", 3.0, ""}});
        plot.addSample(0.25, {{"msd", "um^2", 1e-300, ""}});  // a metric missing: empty cell
        plot.addSample(0.5, {{"msd", "um^2", -2.5, ""},
                             {"pairs, overlapping", "1", 1234567.0, ""},
                             {"late", "", 0.3333333333333333, ""}});
        const QString expected =
            "time [s],msd [um^2],\"pairs, overlapping [1]\",late\n"
            "0,0.1,3,\n"
            "0.25,1e-300,,\n"
            "0.5,-2.5,1234567,0.3333333333333333\n";
        QCOMPARE(plot.csvText(), expected);
        QTemporaryDir dir;
        QString error;
        QVERIFY(plot.exportCsv(dir.filePath("m.csv"), &error));
        QFile f(dir.filePath("m.csv"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()), expected);
        QVERIFY(!plot.exportCsv(dir.filePath("no/such/dir/m.csv"), &error));
        QVERIFY2(error.contains("no/such/dir/m.csv"), qPrintable(error));
    }

    void clearForgetsEverything() {
        MetricsPlot plot;
        plot.addSample(0.0, {{"a", "1", 1.0, ""}, {"b", "m", 2.0, ""}});
        plot.addSample(1.0, {{"a", "1", 1.0, ""}, {"b", "m", 2.0, ""}});
        plot.clear();
        QCOMPARE(plot.sampleCount(), 0);
        QVERIFY(plot.metricNames().isEmpty());
        QCOMPARE(plot.chartCount(), 0);
        QCOMPARE(plot.series("a"), nullptr);
        QCOMPARE(plot.csvText(), QString("time [s]\n"));
        plot.addSample(5.0, {{"c", "K", 9.0, ""}});  // a new model's metrics
        QCOMPARE(plot.metricNames(), QStringList({"c"}));
        QCOMPARE(plot.series("c")->points(), QList<QPointF>({{5.0, 9.0}}));
    }

    // Counts (never negative) keep 0 as their lowest bound where padding would go below
    // it (the "-545.35" under a cell count); a metric that was negative keeps its
    // padding; a constant gets a band, not below 0 either.
    void nonNegativeQuantitiesKeepZeroAsTheirLowestBound() {
        MetricsPlot plot;
        for (int i = 0; i <= 20; ++i)
            plot.addSample(i, {{"cells", "1", 100.0 * i, ""},
                               {"filaments", "1", 1.0, ""},
                               {"zero", "1", 0.0, ""},
                               {"drift", "um", -5.0 + i, ""}});
        auto yOf = [&](const char* m) {
            return qobject_cast<QValueAxis*>(plot.chartOf(m)->axes(Qt::Vertical).front());
        };
        QCOMPARE(yOf("cells")->min(), 0.0);
        QVERIFY(yOf("cells")->max() >= 2000.0);
        QVERIFY(yOf("filaments")->min() >= 0.0 && yOf("filaments")->min() < 1.0);
        QVERIFY(yOf("filaments")->max() > 1.0);
        QCOMPARE(yOf("zero")->min(), 0.0);
        QVERIFY(yOf("zero")->max() > 0.0);
        QVERIFY(yOf("drift")->min() < -5.0);  // negative data: padded below as before
    }

    // Ticks at 1, 2 or 5 times a power of ten, as many decimals as tell them apart, and no
    // label cut short ("1587..." in the issue) at the dock's size, for the times and cell
    // counts of a growing spheroid and for times in the tens of millions.
    void ticksAreRoundAndTheirLabelsFit() {
        auto isRound = [](double step) {
            const double m = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
            return std::abs(m - 1.0) < 1e-6 || std::abs(m - 2.0) < 1e-6 || std::abs(m - 5.0) < 1e-6;
        };
        for (const double scale : {1.0, 1e-3, 4.19e7 / 1587.35}) {
            MetricsPlot plot;
            plot.resize(520, 260);  // the dock's strip at first start on a 1280x720 screen
            plot.show();
            QVERIFY(QTest::qWaitForWindowExposed(&plot));
            for (int i = 0; i <= 50; ++i) {
                const double t = (0.1 + 1587.35 * i / 50.0) * scale;  // from 0.1, as a run
                plot.addSample(t, {{"cells", "1", 347.0 + 37.0 * i, ""}});
            }
            QTest::qWait(50);  // the deferred re-layout at the plot's size
            plot.grab();       // a paint lays the labels out
            for (Qt::Orientation o : {Qt::Horizontal, Qt::Vertical}) {
                auto* axis = qobject_cast<QValueAxis*>(plot.chartOf("cells")->axes(o).front());
                QVERIFY(axis != nullptr);
                QCOMPARE(axis->tickType(), QValueAxis::TicksDynamic);
                QVERIFY2(isRound(axis->tickInterval()),
                         qPrintable(QString::number(axis->tickInterval())));
                QVERIFY2(!axis->labelsTruncated(),
                         qPrintable(QString("%1 axis, scale %2, format %3, interval %4")
                                        .arg(o == Qt::Horizontal ? "x" : "y")
                                        .arg(scale)
                                        .arg(axis->labelFormat())
                                        .arg(axis->tickInterval())));
            }
            auto* y = qobject_cast<QValueAxis*>(plot.chartOf("cells")->axes(Qt::Vertical).front());
            QCOMPARE(y->labelFormat(), QString("%.0f"));  // whole cells
        }
    }

    // A metric that changes comes before a constant one (gliding opened on "filament
    // number = 1"): the chart in view at the top moves.
    void aChangingMetricIsChartedFirst() {
        MetricsPlot plot;
        plot.addSample(0.0, {{"filaments", "1", 1.0, ""}, {"length", "um", 3.0, ""}});
        QCOMPARE(plot.chartOrder(), QStringList({"filaments", "length"}));  // nothing moved yet
        // The filament number summed again differs in its last bit: still constant.
        plot.addSample(1.0, {{"filaments", "1", 1.0 - 2e-16, ""}, {"length", "um", 3.5, ""}});
        QCOMPARE(plot.chartOrder(), QStringList({"length", "filaments"}));
        plot.addSample(2.0, {{"filaments", "1", 2.0, ""}, {"length", "um", 3.5, ""}});
        QCOMPARE(plot.chartOrder(), QStringList({"filaments", "length"}));  // both changed
        QCOMPARE(plot.series("length")->count(), 3);  // rebuilt charts keep every point
    }

    // The dock is never a strip of a few pixels: one whole chart (title, axes, curve).
    void oneWholeChartIsTheLeastHeight() {
        MetricsPlot plot;
        plot.addSample(0.0, {{"cells", "1", 1.0, ""}});
        QVERIFY(plot.minimumSizeHint().height() >= MetricsPlot::kChartHeight);
    }

    void screenshot() {
        // What the dock looks like with the epidermis metrics (shapes like a growing run).
        MetricsPlot plot;
        plot.setTimeUnit("1");
        for (int i = 0; i <= 1300; ++i) {
            const double t = i;
            const double cells = 100.0 * std::pow(2.0, std::floor(t / 400.0) * 0.8);
            plot.addSample(t, {{"cells", "1", cells, ""},
                               {"elements", "1", cells * 20, ""},
                               {"mean_height", "1", 0.5 + 0.001 * t, ""},
                               {"layers", "1", 1.0 + std::floor(t / 500.0), ""},
                               {"mean_ovol1", "1", 0.3 + 0.2 * std::sin(t / 200.0), ""},
                               {"mean_notch", "1", 0.5 + 0.1 * std::cos(t / 150.0), ""}});
        }
        plot.setMetricVisible("elements", false);
        saveShot(plot, "plots_per_metric", 900, 700);
        plot.setMetricVisible("cells", false);
        plot.setMetricVisible("mean_height", false);
        plot.setMetricVisible("layers", false);
        plot.setGrouping(MetricsPlot::Grouping::PerUnit);
        QCOMPARE(plot.chartCount(), 1);
        saveShot(plot, "plots_per_unit", 700, 320);
    }
};

int runPlotsDockTests(int argc, char** argv) {
    PlotsDockTest t;
    return QTest::qExec(&t, argc, argv);
}

}  // namespace cf::gui::test

#include "test_plots_dock.moc"
