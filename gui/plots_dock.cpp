// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/plots_dock.hpp"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileDialog>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QListWidget>
#include <QMessageBox>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSplitter>
#include <QTimer>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/io/series_writer.hpp"

namespace cf::gui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Tableau 10: distinct on white, and a metric keeps its colour in every arrangement.
QColor trackColor(int index) {
    static const QRgb colors[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                                  0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};
    return QColor(colors[index % 10]);
}

QString label(const QString& name, const QString& unit) {
    return unit.isEmpty() ? name : QString("%1 [%2]").arg(name, unit);
}

QIcon swatch(const QColor& color) {
    QPixmap pixmap(12, 12);
    pixmap.fill(color);
    return QIcon(pixmap);
}

// Padded so that a line at the top or bottom stays visible; a constant gets a band
// around it rather than an empty range. Data that was never negative (counts, sizes,
// concentrations) is not padded below 0: a negative cell count is no range to show.
std::pair<double, double> paddedRange(double lo, double hi) {
    if (!(lo <= hi)) return {0.0, 1.0};
    double pad = 0.05 * (hi - lo);
    if (hi - lo <= 1e-12 * std::max(std::abs(lo), std::abs(hi)))
        pad = lo == 0.0 ? 1.0 : 0.1 * std::abs(lo);
    const double bottom = lo - pad;
    return {lo >= 0.0 ? std::max(0.0, bottom) : bottom, hi + pad};
}

// 1, 2 or 5 times a power of ten, at least `raw`: tick steps that read well.
double niceStep(double raw) {
    if (!(raw > 0.0) || !std::isfinite(raw)) return 1.0;
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * decade >= raw * (1.0 - 1e-9)) return m * decade;
    return 10.0 * decade;
}

// printf format of tick labels `step` apart: as many decimals as tell them apart ("%.0f"
// for 500, "%.2f" for 0.05), significant digits beyond 10^6 or below 10^-3 ("%.3g").
QString tickFormat(double lo, double hi, double step) {
    const double magnitude = std::max(std::abs(lo), std::abs(hi));
    const int stepExponent = static_cast<int>(std::floor(std::log10(step) + 1e-9));
    if (magnitude >= 1e6 || (magnitude > 0.0 && magnitude < 1e-3)) {
        const int digits = static_cast<int>(std::floor(std::log10(magnitude))) - stepExponent + 1;
        return QString("%.%1g").arg(std::clamp(digits, 1, 12));
    }
    return QString("%.%1f").arg(std::clamp(-stepExponent, 0, 9));
}

QString tickLabel(const QString& format, double value) {
    return QString::asprintf(format.toLatin1().constData(), value);
}

// Ticks at round values (1, 2 or 5 times a power of ten) no closer than their labels need
// along `pixels` of axis: wider than the widest label across (x), two lines of text up (y).
// `niceEnds` widens the range to whole ticks (y); otherwise it is exactly as given (x: the
// newest sample at the right edge). Fixed ticks while the range changes: with dynamic ticks
// Qt lays out the new range at the old interval first, and a range 10^8 intervals wide (a
// metric jumping from 0.001 to 26000) hangs the window building tick items.
void setAxis(QValueAxis* axis, double lo, double hi, double pixels, bool across, bool niceEnds) {
    const QFontMetricsF metrics(axis->labelsFont());
    const double span = hi - lo;
    double step = niceStep(span / std::max(1.0, std::floor(pixels / (across ? 90.0 : 45.0))));
    QString format = tickFormat(lo, hi, step);
    for (int tries = 0; tries < 8; ++tries) {
        const double a = niceEnds ? std::floor(lo / step) * step : lo;
        const double b = niceEnds ? std::ceil(hi / step) * step : hi;
        const double need = across ? std::max(metrics.horizontalAdvance(tickLabel(format, a)),
                                              metrics.horizontalAdvance(tickLabel(format, b))) +
                                         12.0
                                   : 2.0 * metrics.height();
        if (step / std::max(b - a, 1e-300) * pixels >= need) break;
        step = niceStep(step * 1.5);  // the next round step up
        format = tickFormat(lo, hi, step);
    }
    if (niceEnds) {
        lo = std::floor(lo / step) * step;
        hi = std::ceil(hi / step) * step;
    }
    // Qt Charts elides a label ("4...") when the axis area was laid out for shorter ones (a
    // chart sized while its dock was hidden): the step above already keeps labels apart.
    axis->setTruncateLabels(false);
    axis->setTickType(QValueAxis::TicksFixed);
    axis->setRange(lo, hi);
    axis->setLabelFormat(format);
    axis->setTickAnchor(std::ceil(lo / step) * step);
    axis->setTickInterval(step);
    axis->setTickType(QValueAxis::TicksDynamic);
}

}  // namespace

MetricsPlot::MetricsPlot(QWidget* parent) : QWidget(parent) {
    list_ = new QListWidget(this);
    list_->setObjectName("metricList");
    list_->setToolTip(
        tr("Metrics of the model: uncheck one to hide its curve (it is still "
           "recorded and exported)"));
    connect(list_, &QListWidget::itemChanged, this, &MetricsPlot::onItemChanged);

    groupingBox_ = new QComboBox(this);
    groupingBox_->setObjectName("grouping");
    groupingBox_->addItem(tr("One chart per metric"));
    groupingBox_->addItem(tr("One chart per unit"));
    groupingBox_->setToolTip(
        tr("Per unit: metrics with the same unit share a chart and its y "
           "axis, to compare them"));
    connect(groupingBox_, &QComboBox::currentIndexChanged, this,
            [this](int i) { setGrouping(i == 1 ? Grouping::PerUnit : Grouping::PerMetric); });

    exportButton_ = new QPushButton(tr("Export CSV..."), this);
    exportButton_->setObjectName("exportCsv");
    exportButton_->setToolTip(
        tr("Write the plotted samples (time and every metric, with units "
           "in the header) to a CSV file"));
    exportButton_->setEnabled(false);
    connect(exportButton_, &QPushButton::clicked, this, &MetricsPlot::onExportClicked);

    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(list_, 1);
    sideLayout->addWidget(groupingBox_);
    sideLayout->addWidget(exportButton_);

    auto* chartsHost = new QWidget(this);
    chartsLayout_ = new QVBoxLayout(chartsHost);
    chartsLayout_->setContentsMargins(0, 0, 0, 0);
    chartsLayout_->setSpacing(2);
    emptyLabel_ = new QLabel(tr("No samples yet: play or step the simulation."), chartsHost);
    emptyLabel_->setAlignment(Qt::AlignCenter);
    chartsLayout_->addWidget(emptyLabel_);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(chartsHost);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // One whole chart in view: the dock is never the strip of a few pixels that shows
    // nothing readable.
    scroll->setMinimumHeight(kChartHeight + 4);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(side);
    splitter->addWidget(scroll);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({170, 500});
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(splitter);
}

MetricsPlot::~MetricsPlot() = default;

void MetricsPlot::setTimeUnit(const QString& unit) {
    timeUnit_ = unit;
    for (ChartGroup& g : charts_)
        g.x->setTitleText(label(tr("time"), timeUnit_));
}

void MetricsPlot::setGrouping(Grouping grouping) {
    if (grouping == grouping_) return;
    grouping_ = grouping;
    groupingBox_->setCurrentIndex(grouping == Grouping::PerUnit ? 1 : 0);
    rebuildCharts();
}

void MetricsPlot::setMaxPointsPerSeries(int count) {
    maxPoints_ = std::max(4, count);
    bool changed = false;
    while (sampleCount() > maxPoints_) {
        decimate();
        changed = true;
    }
    if (changed) rebuildCharts();
}

void MetricsPlot::setMetricVisible(const QString& name, bool visible) {
    auto it = byName_.find(name);
    if (it == byName_.end() || tracks_[it->second].visible == visible) return;
    tracks_[it->second].visible = visible;
    updatingList_ = true;
    list_->item(it->second)->setCheckState(visible ? Qt::Checked : Qt::Unchecked);
    updatingList_ = false;
    rebuildCharts();
}

bool MetricsPlot::isMetricVisible(const QString& name) const {
    auto it = byName_.find(name);
    return it != byName_.end() && tracks_[it->second].visible;
}

void MetricsPlot::onItemChanged(QListWidgetItem* item) {
    if (updatingList_) return;
    setMetricVisible(item->data(Qt::UserRole).toString(), item->checkState() == Qt::Checked);
}

QStringList MetricsPlot::metricNames() const {
    QStringList names;
    for (const Track& t : tracks_)
        names << t.name;
    return names;
}

QString MetricsPlot::unitOf(const QString& metric) const {
    auto it = byName_.find(metric);
    return it == byName_.end() ? QString() : tracks_[it->second].unit;
}

std::vector<double> MetricsPlot::values(const QString& metric) const {
    auto it = byName_.find(metric);
    return it == byName_.end() ? std::vector<double>{} : tracks_[it->second].values;
}

QLineSeries* MetricsPlot::series(const QString& metric) const {
    auto it = byName_.find(metric);
    return it == byName_.end() ? nullptr : tracks_[it->second].series;
}

QStringList MetricsPlot::chartOrder() const {
    QStringList order;
    for (const ChartGroup& g : charts_)
        order << tracks_[g.tracks.front()].name;
    return order;
}

void MetricsPlot::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // Tick spacing depends on the charts' size: laid out again once they have their new one.
    QTimer::singleShot(0, this, &MetricsPlot::updateAxes);
}

QChart* MetricsPlot::chartOf(const QString& metric) const {
    auto it = byName_.find(metric);
    return it == byName_.end() ? nullptr : tracks_[it->second].chart;
}

int MetricsPlot::trackIndex(const QString& name, const QString& unit) {
    if (auto it = byName_.find(name); it != byName_.end()) return it->second;
    const int index = static_cast<int>(tracks_.size());
    Track t;
    t.name = name;
    t.unit = unit;
    t.values.assign(times_.size(), kNaN);
    tracks_.push_back(std::move(t));
    byName_[name] = index;
    updatingList_ = true;
    auto* item = new QListWidgetItem(swatch(trackColor(index)), label(name, unit), list_);
    item->setData(Qt::UserRole, name);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Checked);
    item->setToolTip(tr("%1, unit %2").arg(name, unit.isEmpty() ? tr("none") : unit));
    updatingList_ = false;
    return index;
}

void MetricsPlot::dropData() {
    times_.clear();
    for (Track& t : tracks_)
        t.values.clear();
    sampleIndex_ = 0;
    stride_ = 1;
    lastProvisional_ = false;
}

void MetricsPlot::clear() {
    dropData();
    tracks_.clear();
    byName_.clear();
    list_->clear();
    rebuildCharts();
}

void MetricsPlot::addSample(double time, const std::vector<Metric>& metrics) {
    if (!std::isfinite(time)) return;
    if (!times_.empty() && time == times_.back()) return;
    bool rebuild = false;
    if (!times_.empty() && time < times_.back()) {
        // The run was reset or replaced: a new series of the same metrics.
        dropData();
        rebuild = true;
    }
    const bool onGrid = sampleIndex_ % stride_ == 0;
    if (lastProvisional_) {
        times_.pop_back();
        for (Track& t : tracks_) {
            if (t.series && std::isfinite(t.values.back())) t.series->remove(t.series->count() - 1);
            t.values.pop_back();
        }
    }
    times_.push_back(time);
    for (Track& t : tracks_)
        t.values.push_back(kNaN);
    for (const Metric& m : metrics) {
        const std::size_t before = tracks_.size();
        const int i = trackIndex(QString::fromStdString(m.name), QString::fromStdString(m.unit));
        if (tracks_.size() != before) rebuild = true;
        Track& t = tracks_[i];
        t.values.back() = m.value;
        if (!t.varied && std::isfinite(m.value)) {
            // Changing metrics move ahead of constant ones (rebuildCharts' order): at most
            // once per metric. A change within round-off (a conserved filament number summed
            // again, 1 - 2e-16) is no change.
            const auto first = std::find_if(t.values.begin(), t.values.end(),
                                            [](double v) { return std::isfinite(v); });
            if (std::abs(*first - m.value) > 1e-9 * std::max(std::abs(*first), std::abs(m.value))) {
                t.varied = true;
                rebuild = true;
            }
        }
    }
    lastProvisional_ = !onGrid;
    ++sampleIndex_;
    if (sampleCount() > maxPoints_) {
        decimate();
        rebuild = true;
    }
    exportButton_->setEnabled(true);
    if (rebuild) {
        rebuildCharts();
    } else {
        for (Track& t : tracks_)
            if (t.series && std::isfinite(t.values.back())) t.series->append(time, t.values.back());
        updateAxes();
    }
    emit sampleAdded(time);
}

void MetricsPlot::decimate() {
    // Rows are the grid samples 0, s, 2s, ... and maybe a provisional latest one. Keeping
    // the even grid positions leaves the multiples of 2s; the latest row always stays.
    const std::size_t n = times_.size();
    const std::size_t gridRows = lastProvisional_ ? n - 1 : n;
    std::vector<std::size_t> keep;
    for (std::size_t i = 0; i < gridRows; i += 2)
        keep.push_back(i);
    const bool lastKeptOnGrid = !keep.empty() && keep.back() == n - 1;
    if (!lastKeptOnGrid) keep.push_back(n - 1);
    lastProvisional_ = !lastKeptOnGrid;
    auto pick = [&keep](std::vector<double>& v) {
        std::vector<double> out;
        out.reserve(keep.size());
        for (std::size_t i : keep)
            out.push_back(v[i]);
        v = std::move(out);
    };
    pick(times_);
    for (Track& t : tracks_)
        pick(t.values);
    stride_ *= 2;
}

void MetricsPlot::rebuildCharts() {
    for (ChartGroup& g : charts_)
        delete g.view;  // owns its chart, which owns the series and axes
    charts_.clear();
    for (Track& t : tracks_) {
        t.series = nullptr;
        t.chart = nullptr;
    }

    // Which tracks go into which chart: those that have changed first, each part in the
    // order the metrics first appeared.
    std::vector<int> order;
    for (bool varied : {true, false})
        for (int i = 0; i < static_cast<int>(tracks_.size()); ++i)
            if (tracks_[i].varied == varied) order.push_back(i);
    std::vector<std::vector<int>> groups;
    std::map<QString, std::size_t> groupOfUnit;
    for (int i : order) {
        if (!tracks_[i].visible) continue;
        if (grouping_ == Grouping::PerUnit) {
            auto [it, fresh] = groupOfUnit.try_emplace(tracks_[i].unit, groups.size());
            if (fresh) groups.emplace_back();
            groups[it->second].push_back(i);
        } else {
            groups.push_back({i});
        }
    }

    emptyLabel_->setText(tracks_.empty() ? tr("No samples yet: play or step the simulation.")
                                         : tr("No metric checked."));
    emptyLabel_->setVisible(groups.empty());
    for (const std::vector<int>& members : groups) {
        ChartGroup g;
        g.tracks = members;
        g.chart = new QChart();
        g.chart->setMargins(QMargins(4, 4, 4, 4));
        g.chart->setBackgroundRoundness(0);
        g.chart->legend()->setAlignment(Qt::AlignTop);
        g.x = new QValueAxis(g.chart);
        g.x->setTitleText(label(tr("time"), timeUnit_));
        g.y = new QValueAxis(g.chart);
        const QString& unit = tracks_[members.front()].unit;
        g.y->setTitleText(unit.isEmpty() ? tr("value") : QString("[%1]").arg(unit));
        g.chart->addAxis(g.x, Qt::AlignBottom);
        g.chart->addAxis(g.y, Qt::AlignLeft);
        for (int i : members) {
            Track& t = tracks_[i];
            auto* s = new QLineSeries(g.chart);
            s->setName(t.name);
            QPen pen(trackColor(i));
            pen.setWidthF(1.5);
            s->setPen(pen);
            QList<QPointF> points;
            points.reserve(static_cast<qsizetype>(times_.size()));
            for (std::size_t k = 0; k < times_.size(); ++k)
                if (std::isfinite(t.values[k])) points.append(QPointF(times_[k], t.values[k]));
            s->replace(points);
            g.chart->addSeries(s);
            s->attachAxis(g.x);
            s->attachAxis(g.y);
            t.series = s;
            t.chart = g.chart;
        }
        g.view = new QChartView(g.chart);
        g.view->setRenderHint(QPainter::Antialiasing);
        g.view->setMinimumHeight(kChartHeight);
        g.view->setToolTip(tr("Drag the splitter or float the dock to enlarge"));
        chartsLayout_->addWidget(g.view);
        charts_.push_back(g);
    }
    updateAxes();
}

void MetricsPlot::updateAxes() {
    // The plot area's size in pixels (before the first layout: the view's, less room for
    // the labels).
    auto pixels = [](const ChartGroup& g) {
        const QRectF area = g.chart->plotArea();
        if (area.width() > 10 && area.height() > 10) return std::pair(area.width(), area.height());
        return std::pair(std::max(100.0, g.view->width() - 80.0),
                         std::max(60.0, g.view->height() - 70.0));
    };
    if (times_.empty()) {
        for (ChartGroup& g : charts_) {
            const auto [w, h] = pixels(g);
            setAxis(g.x, 0.0, 1.0, w, true, false);
            setAxis(g.y, 0.0, 1.0, h, false, true);
        }
        return;
    }
    double t0 = times_.front(), t1 = times_.back();
    if (t1 <= t0) t1 = t0 + (t0 == 0.0 ? 1.0 : std::abs(t0) * 0.1);
    for (ChartGroup& g : charts_) {
        const auto [w, h] = pixels(g);
        setAxis(g.x, t0, t1, w, true, false);
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (int i : g.tracks)
            for (double v : tracks_[i].values)
                if (std::isfinite(v)) {
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                }
        const auto [a, b] = paddedRange(lo, hi);
        setAxis(g.y, a, b, h, false, true);
    }
}

QString MetricsPlot::csvText() const {
    auto cell = [](const QString& s) {
        return QString::fromStdString(io::csvCell(s.toStdString()));
    };
    QString out = cell(label("time", timeUnit_));
    for (const Track& t : tracks_)
        out += "," + cell(label(t.name, t.unit));
    out += "\n";
    for (std::size_t k = 0; k < times_.size(); ++k) {
        out += QString::fromStdString(io::formatDouble(times_[k]));
        for (const Track& t : tracks_) {
            out += ",";
            if (!std::isnan(t.values[k]))
                out += QString::fromStdString(io::formatDouble(t.values[k]));
        }
        out += "\n";
    }
    return out;
}

bool MetricsPlot::exportCsv(const QString& path, QString* error) const {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        if (error) *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    file.write(csvText().toUtf8());
    if (!file.commit()) {
        if (error) *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void MetricsPlot::onExportClicked() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export metrics"), "metrics.csv",
                                                      tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportCsv(path, &error)) QMessageBox::warning(this, tr("Export CSV"), error);
}

}  // namespace cf::gui
