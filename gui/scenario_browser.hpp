// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The scenario browser: the bundled scenarios (a folder of *.toml files) grouped under the
// models that run them, each with a thumbnail, a title and the description its leading
// '#' comment gives; the models with their descriptions. Choosing one (double click,
// Enter or "Open") emits scenarioChosen(path). A file that does not load is still listed,
// with a warning marker and the loader's message as its tooltip.
#include <QString>
#include <QWidget>
#include <vector>

#include "sim/core/model.hpp"

class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace cf::gui {

// What a scenario file's leading comment says. `title` is the text before the first ": "
// of its first paragraph (or the file's name), `description` the rest of that paragraph
// (up to a blank comment line or a line that opens a list), `full` every leading comment
// line but the SPDX one.
struct ScenarioComment {
    QString title;
    QString description;
    QString full;
};
ScenarioComment parseScenarioComment(const QString& tomlText, const QString& fallbackTitle);

struct ScenarioEntry {
    QString path;             // absolute
    QString name;             // file name without .toml
    QString model;            // the `model` key, even when the file does not load; empty if none
    ScenarioComment comment;  // its title is [about] title when the file has one
    QString demonstrates;     // [about] demonstrates: one line on what it shows
    QString reproduces;       // [about] reproduces: one line on the paper it follows
    QString error;            // why the file does not load; empty when it does
    QString thumbnail;        // <dir>/thumbnails/<name>.png when it exists, else empty
};
// Reads the file's comment and model and checks that it loads with `registry`.
ScenarioEntry readScenarioEntry(const QString& path, const ModelRegistry& registry);

class ScenarioBrowser : public QWidget {
    Q_OBJECT
public:
    explicit ScenarioBrowser(QWidget* parent = nullptr);
    ~ScenarioBrowser() override;

    // The models to group by and to load with (default: builtinModels()).
    void setRegistry(ModelRegistry registry);
    // Lists <dir>/*.toml (in natural order: 128 before 1000) and their thumbnails in
    // <dir>/thumbnails/.
    void setDirectory(const QString& dir);
    QString directory() const { return dir_; }
    // Reads the folder again (files added, fixed or thumbnails made since).
    void refresh();

    const std::vector<ScenarioEntry>& entries() const { return entries_; }
    // The selected scenario's path, empty when a model or nothing is selected.
    QString currentPath() const;
    // Makes the scenario at `path` current (false: not in the list); when it was not current,
    // the list scrolls it to its top.
    bool selectPath(const QString& path);
    QTreeWidget* tree() const { return tree_; }

    static constexpr int kThumbnailWidth = 192;
    static constexpr int kThumbnailHeight = 108;

signals:
    void scenarioChosen(const QString& path);

public slots:
    // Emits scenarioChosen for the selected scenario unless it failed to load.
    void openCurrent();

private:
    void rebuildTree();
    void showDetails();
    QPixmap thumbnailFor(const ScenarioEntry& entry) const;

    ModelRegistry registry_;
    QString dir_;
    std::vector<ScenarioEntry> entries_;
    QTreeWidget* tree_ = nullptr;
    QLabel* image_ = nullptr;
    QLabel* details_ = nullptr;
    QPushButton* open_ = nullptr;
};

}  // namespace cf::gui
