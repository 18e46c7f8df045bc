// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/scenario_browser.hpp"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLinearGradient>
#include <QPainter>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSplitter>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>
#include <map>

#include "sim/core/scenario.hpp"

namespace cf::gui {

namespace {

constexpr int kPathRole = Qt::UserRole;
constexpr int kErrorRole = Qt::UserRole + 1;
constexpr int kModelRole = Qt::UserRole + 2;

QString shortPath(const QString& path) {
    return QDir::toNativeSeparators(path);
}

// "table3-128" before "table3-1000": digit runs compare as numbers. (QCollator's numeric
// mode does this too, but not under the C locale that tests and servers often run in.)
bool naturalLess(const QString& a, const QString& b) {
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            qsizetype ei = i, ej = j;
            while (ei < a.size() && a[ei].isDigit())
                ++ei;
            while (ej < b.size() && b[ej].isDigit())
                ++ej;
            const QString na = a.mid(i, ei - i), nb = b.mid(j, ej - j);
            const QString ta = na.size() > 1 ? QString(na).remove(QRegularExpression("^0+")) : na;
            const QString tb = nb.size() > 1 ? QString(nb).remove(QRegularExpression("^0+")) : nb;
            if (ta.size() != tb.size()) return ta.size() < tb.size();
            if (ta != tb) return ta < tb;
            i = ei;
            j = ej;
        } else {
            if (a[i] != b[j]) return a[i] < b[j];
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

// Under its model's heading a title need not repeat the model: "Epidermis (Christley et
// al. 2010), movement only" reads "Movement only" there (the details keep it whole).
QString titleUnderModel(const QString& title, const QString& model) {
    const int comma = title.indexOf(", ");
    if (model.isEmpty() || comma < 0 || !title.startsWith(model, Qt::CaseInsensitive)) return title;
    QString rest = title.mid(comma + 2);
    if (!rest.isEmpty()) rest[0] = rest[0].toUpper();
    return rest;
}

}  // namespace

ScenarioComment parseScenarioComment(const QString& tomlText, const QString& fallbackTitle) {
    QStringList lines;  // the leading comment, '#' and one space removed
    for (const QString& raw : tomlText.split('\n')) {
        const QString line = raw.trimmed();
        if (!line.startsWith('#')) break;
        QString text = raw.mid(raw.indexOf('#') + 1);
        if (text.startsWith(' ')) text.remove(0, 1);
        if (text.contains("SPDX-License-Identifier")) continue;
        lines << (text.trimmed().isEmpty() ? QString() : text);
    }
    while (!lines.isEmpty() && lines.back().trimmed().isEmpty())
        lines.removeLast();

    QString paragraph;
    for (const QString& line : lines) {
        // A blank comment line ends the paragraph, and so does an indented line or one
        // that opens a list ("... with the same file:"), which read badly run together.
        if (line.trimmed().isEmpty() || line.startsWith(' ')) break;
        if (line.trimmed().endsWith(':') && !paragraph.isEmpty()) break;
        paragraph += (paragraph.isEmpty() ? "" : " ") + line.trimmed();
    }

    ScenarioComment c;
    c.full = lines.join('\n');
    c.title = fallbackTitle;
    c.description = paragraph;
    const int colon = paragraph.indexOf(": ");
    if (colon > 0 && colon <= 90) {
        c.title = paragraph.left(colon);
        c.description = paragraph.mid(colon + 2);
        if (!c.description.isEmpty()) c.description[0] = c.description[0].toUpper();
    }
    return c;
}

ScenarioEntry readScenarioEntry(const QString& path, const ModelRegistry& registry) {
    const QFileInfo info(path);
    ScenarioEntry e;
    e.path = info.absoluteFilePath();
    e.name = info.completeBaseName();
    const QString thumb = info.absolutePath() + "/thumbnails/" + e.name + ".png";
    if (QFileInfo::exists(thumb)) e.thumbnail = thumb;

    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        e.error = QObject::tr("cannot read %1: %2").arg(path, file.errorString());
        e.comment.title = e.name;
        return e;
    }
    const QString text = QString::fromUtf8(file.readAll());
    e.comment = parseScenarioComment(text, e.name);
    // The model key on its own, so that a file with a later mistake is still grouped.
    static const QRegularExpression modelKey(R"re(^\s*model\s*=\s*"([^"]*)")re",
                                             QRegularExpression::MultilineOption);
    if (auto m = modelKey.match(text); m.hasMatch()) e.model = m.captured(1);
    try {
        const Scenario sc = loadScenario(path.toStdString(), registry);
        e.model = QString::fromStdString(sc.model->name);
        if (!sc.about.title.empty()) e.comment.title = QString::fromStdString(sc.about.title);
        e.demonstrates = QString::fromStdString(sc.about.demonstrates);
        e.reproduces = QString::fromStdString(sc.about.reproduces);
    } catch (const std::exception& ex) {
        e.error = QString::fromStdString(ex.what());
    }
    return e;
}

ScenarioBrowser::ScenarioBrowser(QWidget* parent) : QWidget(parent), registry_(builtinModels()) {
    tree_ = new QTreeWidget(this);
    tree_->setObjectName("scenarioTree");
    tree_->setColumnCount(1);
    tree_->setHeaderHidden(true);
    tree_->setIconSize(QSize(kThumbnailWidth / 2, kThumbnailHeight / 2));
    tree_->setWordWrap(true);
    tree_->setExpandsOnDoubleClick(false);
    tree_->setToolTip(tr("Double click a scenario (or press Enter) to open it"));
    connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        if (item->parent() == nullptr)
            item->setExpanded(!item->isExpanded());
        else
            openCurrent();
    });
    connect(tree_, &QTreeWidget::currentItemChanged, this, &ScenarioBrowser::showDetails);

    image_ = new QLabel(this);
    image_->setFixedSize(kThumbnailWidth, kThumbnailHeight);
    image_->setAlignment(Qt::AlignCenter);
    details_ = new QLabel(this);
    details_->setObjectName("scenarioDetails");
    details_->setWordWrap(true);
    details_->setTextFormat(Qt::RichText);
    details_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    open_ = new QPushButton(tr("Open"), this);
    open_->setObjectName("openScenario");
    open_->setEnabled(false);
    connect(open_, &QPushButton::clicked, this, &ScenarioBrowser::openCurrent);
    auto* refresh = new QPushButton(tr("Refresh"), this);
    refresh->setToolTip(tr("Read the scenario folder again"));
    connect(refresh, &QPushButton::clicked, this, &ScenarioBrowser::refresh);

    auto* pane = new QWidget(this);
    auto* paneLayout = new QVBoxLayout(pane);
    paneLayout->setContentsMargins(4, 4, 4, 4);
    paneLayout->addWidget(image_, 0, Qt::AlignHCenter);
    paneLayout->addWidget(details_, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(refresh);
    buttons->addStretch(1);
    buttons->addWidget(open_);
    paneLayout->addLayout(buttons);

    // The details scroll rather than set the dock's least height: on a 1280x720 screen the
    // window would otherwise be taller than the screen, its status bar below the edge.
    auto* paneScroll = new QScrollArea(this);
    paneScroll->setWidget(pane);
    paneScroll->setWidgetResizable(true);
    paneScroll->setFrameShape(QFrame::NoFrame);
    paneScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(tree_);
    splitter->addWidget(paneScroll);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(splitter);
    showDetails();
}

ScenarioBrowser::~ScenarioBrowser() = default;

void ScenarioBrowser::setRegistry(ModelRegistry registry) {
    registry_ = std::move(registry);
    refresh();
}

void ScenarioBrowser::setDirectory(const QString& dir) {
    dir_ = dir;
    refresh();
}

void ScenarioBrowser::refresh() {
    const QString selected = currentPath();
    entries_.clear();
    if (!dir_.isEmpty()) {
        const QDir dir(dir_);
        for (const QFileInfo& f : dir.entryInfoList({"*.toml"}, QDir::Files))
            entries_.push_back(readScenarioEntry(f.absoluteFilePath(), registry_));
        std::sort(entries_.begin(), entries_.end(),
                  [](const ScenarioEntry& a, const ScenarioEntry& b) {
                      return naturalLess(a.name, b.name);
                  });
    }
    rebuildTree();
    if (!selected.isEmpty()) selectPath(selected);
}

QPixmap ScenarioBrowser::thumbnailFor(const ScenarioEntry& e) const {
    if (!e.thumbnail.isEmpty()) {
        QPixmap p(e.thumbnail);
        if (!p.isNull())
            return p.scaled(kThumbnailWidth, kThumbnailHeight, Qt::KeepAspectRatio,
                            Qt::SmoothTransformation);
    }
    // Placeholder: the viewport's dark background with the model's name.
    QPixmap p(kThumbnailWidth, kThumbnailHeight);
    QPainter painter(&p);
    QLinearGradient g(0, 0, 0, kThumbnailHeight);
    g.setColorAt(0, QColor(48, 52, 60));
    g.setColorAt(1, QColor(22, 24, 28));
    painter.fillRect(p.rect(), g);
    painter.setPen(QColor(200, 200, 200));
    QFont f = painter.font();
    f.setPixelSize(16);
    painter.setFont(f);
    painter.drawText(
        p.rect(), Qt::AlignCenter,
        e.error.isEmpty() ? (e.model.isEmpty() ? e.name : e.model) : tr("cannot be loaded"));
    if (!e.error.isEmpty()) {
        const QIcon warn = style()->standardIcon(QStyle::SP_MessageBoxWarning);
        painter.drawPixmap(6, 6, warn.pixmap(24, 24));
    }
    return p;
}

void ScenarioBrowser::rebuildTree() {
    tree_->clear();
    QFont bold = tree_->font();
    bold.setBold(true);
    auto addGroup = [&](const QString& name, const QString& description, bool known) {
        auto* item = new QTreeWidgetItem(tree_);
        item->setText(0, description.isEmpty() ? name : QString("%1 — %2").arg(name, description));
        item->setFont(0, bold);
        item->setData(0, kModelRole, name);
        item->setToolTip(0, known ? tr("Model %1: %2").arg(name, description)
                                  : QString("%1: %2").arg(name, description));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        return item;
    };
    std::map<QString, QTreeWidgetItem*> groups;
    for (const ModelDescriptor& m : registry_.all()) {
        const QString name = QString::fromStdString(m.name);
        groups[name] = addGroup(name, QString::fromStdString(m.description), true);
    }
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    for (const ScenarioEntry& e : entries_) {
        const QString key = e.model.isEmpty() ? tr("(no model key)") : e.model;
        QTreeWidgetItem*& group = groups[key];
        if (!group)
            group = addGroup(key,
                             e.model.isEmpty() ? tr("files that name no model")
                                               : tr("not a model of this build"),
                             false);
        auto* item = new QTreeWidgetItem(group);
        item->setData(0, kPathRole, e.path);
        item->setData(0, kErrorRole, e.error);
        if (e.error.isEmpty()) {
            // Title, then two lines: what it demonstrates and which paper it reproduces.
            const QString title = titleUnderModel(e.comment.title, e.model);
            item->setText(0, e.demonstrates.isEmpty()
                                 ? QString("%1\n%2.toml").arg(title, e.name)
                                 : QString("%1\n%2\n%3").arg(title, e.demonstrates, e.reproduces));
            item->setIcon(0, QIcon(thumbnailFor(e)));
            item->setToolTip(
                0, QString("<b>%1</b><br>%2<br><i>%3</i>")
                       .arg(e.comment.title.toHtmlEscaped(), e.comment.description.toHtmlEscaped(),
                            shortPath(e.path).toHtmlEscaped()));
        } else {
            item->setText(0, tr("%1.toml — cannot be loaded").arg(e.name));
            item->setIcon(0, warning);
            item->setForeground(0, QBrush(QColor(180, 30, 30)));
            item->setToolTip(0, e.error);
        }
    }
    tree_->expandAll();
    if (tree_->topLevelItemCount() > 0) tree_->setCurrentItem(tree_->topLevelItem(0));
    showDetails();
}

QString ScenarioBrowser::currentPath() const {
    const QTreeWidgetItem* item = tree_->currentItem();
    return item ? item->data(0, kPathRole).toString() : QString();
}

bool ScenarioBrowser::selectPath(const QString& path) {
    const QString wanted = QFileInfo(path).absoluteFilePath();
    for (int g = 0; g < tree_->topLevelItemCount(); ++g) {
        QTreeWidgetItem* group = tree_->topLevelItem(g);
        for (int i = 0; i < group->childCount(); ++i) {
            QTreeWidgetItem* item = group->child(i);
            if (item->data(0, kPathRole).toString() == wanted) {
                // Opened from elsewhere (File > Open, a tour, the command line): the list
                // shows it at its top, whatever it showed before. Opened from the list itself
                // it is current already, and the list stays where the user left it.
                if (tree_->currentItem() != item) {
                    tree_->setCurrentItem(item);
                    tree_->scrollToItem(item, QAbstractItemView::PositionAtTop);
                }
                return true;
            }
        }
    }
    return false;
}

void ScenarioBrowser::openCurrent() {
    const QTreeWidgetItem* item = tree_->currentItem();
    if (!item || item->data(0, kPathRole).toString().isEmpty()) return;
    if (!item->data(0, kErrorRole).toString().isEmpty()) return;  // shown in the details
    emit scenarioChosen(item->data(0, kPathRole).toString());
}

void ScenarioBrowser::showDetails() {
    const QTreeWidgetItem* item = tree_->currentItem();
    open_->setEnabled(false);
    open_->setToolTip(tr("Open the selected scenario"));
    if (!item) {
        image_->clear();
        details_->setText(dir_.isEmpty() ? tr("No scenario folder.")
                                         : tr("No scenarios in %1.").arg(shortPath(dir_)));
        return;
    }
    const QString path = item->data(0, kPathRole).toString();
    if (path.isEmpty()) {  // a model
        const QString name = item->data(0, kModelRole).toString();
        const ModelDescriptor* m = registry_.find(name.toStdString());
        image_->clear();
        if (!m) {
            details_->setText(tr("<b>%1</b><p>No model of this name in this build.</p>")
                                  .arg(name.toHtmlEscaped()));
            return;
        }
        details_->setText(
            tr("<b>Model %1</b><p>%2</p><p>Time unit: %3; %4 parameters; %5 bundled "
               "scenarios.</p>")
                .arg(name.toHtmlEscaped(), QString::fromStdString(m->description).toHtmlEscaped(),
                     QString::fromStdString(m->timeUnit).toHtmlEscaped())
                .arg(m->parameters ? static_cast<int>(m->parameters().specs().size()) : 0)
                .arg(item->childCount()));
        return;
    }
    const auto it = std::find_if(entries_.begin(), entries_.end(),
                                 [&](const ScenarioEntry& e) { return e.path == path; });
    if (it == entries_.end()) return;
    image_->setPixmap(thumbnailFor(*it));
    if (!it->error.isEmpty()) {
        details_->setText(tr("<b>%1.toml cannot be loaded</b><p style='color:#b41e1e'>%2</p>"
                             "<p><i>%3</i></p>")
                              .arg(it->name.toHtmlEscaped(), it->error.toHtmlEscaped(),
                                   shortPath(it->path).toHtmlEscaped()));
        open_->setToolTip(it->error);
        return;
    }
    QString about;
    if (!it->demonstrates.isEmpty())
        about = tr("<p>%1</p><p><i>Reproduces:</i> %2</p>")
                    .arg(it->demonstrates.toHtmlEscaped(), it->reproduces.toHtmlEscaped());
    details_->setText(QString("<b>%1</b>%2<p>%3</p><p>Model: %4<br><i>%5</i></p>")
                          .arg(it->comment.title.toHtmlEscaped(), about,
                               it->comment.description.toHtmlEscaped(), it->model.toHtmlEscaped(),
                               shortPath(it->path).toHtmlEscaped()));
    details_->setToolTip(QString("<pre>%1</pre>").arg(it->comment.full.toHtmlEscaped()));
    open_->setEnabled(true);
}

}  // namespace cf::gui
