// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Live time series of the model's metrics (Qt Charts), for the window's "Plots" dock.
//
// Left: a checkable list of the metrics ("name [unit]"); right: the charts of the checked
// ones. Two arrangements: one chart per metric (the default: the epidermis metrics all
// carry unit "1" but range from 0.1 to 10^4, and a shared axis would flatten most of them)
// or one chart per unit (metrics sharing a unit share the y axis, to compare e.g. the mean
// species levels). Metrics that have changed come first, so the chart in view at the top
// moves (a constant such as the gliding model's filament number goes to the end). Axes
// scale to the data; x is "time [unit]", y is "[unit]", with ticks at round values spaced
// so that their labels fit (none is cut short), and a quantity that has never been
// negative (a count) keeps 0 as its lowest bound.
//
// Memory stays bounded: when a series would exceed maxPointsPerSeries() the kept samples
// are halved (every other one dropped; the first one stays) and from then on only every
// second sample lands on the grid. The latest sample is always shown exactly: it is kept
// provisionally and replaced by the next one when it is off the grid.
#include <QString>
#include <QStringList>
#include <QWidget>
#include <cstdint>
#include <map>
#include <vector>

#include "sim/core/model.hpp"

class QChart;
class QChartView;
class QComboBox;
class QLineSeries;
class QListWidget;
class QListWidgetItem;
class QPushButton;
class QLabel;
class QVBoxLayout;
class QValueAxis;

namespace cf::gui {

class MetricsPlot : public QWidget {
    Q_OBJECT
public:
    enum class Grouping { PerMetric, PerUnit };

    explicit MetricsPlot(QWidget* parent = nullptr);
    ~MetricsPlot() override;

    // One sample of every metric at simulation time `time` (the runner's latest frame).
    // A time equal to the latest one is ignored (the frame did not change); a time before
    // it means the run was reset or replaced: the plot starts over. Metrics are matched
    // by name; a metric missing from a sample has no point there.
    void addSample(double time, const std::vector<Metric>& metrics);
    // Forgets every sample and metric.
    void clear();
    // Unit of the time axis (the model's ModelDescriptor::timeUnit).
    void setTimeUnit(const QString& unit);
    QString timeUnit() const { return timeUnit_; }

    void setGrouping(Grouping grouping);
    Grouping grouping() const { return grouping_; }
    // At least 4; applies from the next sample on.
    void setMaxPointsPerSeries(int count);
    int maxPointsPerSeries() const { return maxPoints_; }

    // Which metrics are drawn (all are recorded and exported either way).
    void setMetricVisible(const QString& name, bool visible);
    bool isMetricVisible(const QString& name) const;

    // What is kept (the plotted samples, after decimation).
    QStringList metricNames() const;
    QString unitOf(const QString& metric) const;
    int sampleCount() const { return static_cast<int>(times_.size()); }
    std::vector<double> sampleTimes() const { return times_; }
    std::vector<double> values(const QString& metric) const;  // NaN where a sample lacks it

    // The chart objects, for tests and screenshots; nullptr for a hidden metric.
    QLineSeries* series(const QString& metric) const;
    QChart* chartOf(const QString& metric) const;
    int chartCount() const { return static_cast<int>(charts_.size()); }
    // The charts top to bottom, each named by its first metric.
    QStringList chartOrder() const;
    // Each chart's height, at least: its title, axis labels and a readable curve.
    static constexpr int kChartHeight = 170;

    // CSV of the kept samples: header "time [unit],name [unit],..." then one row per
    // sample, numbers in their shortest exact form, an empty cell where a metric is missing.
    QString csvText() const;
    // Writes csvText(); on failure returns false and sets *error to a message naming the file.
    bool exportCsv(const QString& path, QString* error = nullptr) const;

signals:
    // After every accepted sample (for status displays).
    void sampleAdded(double time);

private:
    struct Track {  // one metric
        QString name;
        QString unit;
        std::vector<double> values;  // parallel to times_
        QLineSeries* series = nullptr;
        QChart* chart = nullptr;
        bool visible = true;
        bool varied = false;  // has taken more than one value
    };
    struct ChartGroup {
        QChartView* view = nullptr;
        QChart* chart = nullptr;
        QValueAxis* x = nullptr;
        QValueAxis* y = nullptr;
        std::vector<int> tracks;  // indices into tracks_
    };

    int trackIndex(const QString& name, const QString& unit);
    void dropData();
    void decimate();
    void rebuildCharts();
    void updateAxes();
    void onExportClicked();
    void onItemChanged(QListWidgetItem* item);
    void resizeEvent(QResizeEvent* event) override;

    QString timeUnit_ = "s";
    Grouping grouping_ = Grouping::PerMetric;
    int maxPoints_ = 2000;
    std::vector<double> times_;
    std::vector<Track> tracks_;
    std::map<QString, int> byName_;
    std::uint64_t sampleIndex_ = 0;  // accepted samples since the start (grid position)
    std::uint64_t stride_ = 1;       // samples between two kept grid points
    bool lastProvisional_ = false;   // the last kept sample is off the grid

    QListWidget* list_ = nullptr;
    QComboBox* groupingBox_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    QVBoxLayout* chartsLayout_ = nullptr;
    QLabel* emptyLabel_ = nullptr;
    std::vector<ChartGroup> charts_;
    bool updatingList_ = false;
};

}  // namespace cf::gui
