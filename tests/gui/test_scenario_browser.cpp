// SPDX-License-Identifier: GPL-3.0-or-later
// ScenarioBrowser: every bundled scenario listed under its model with the description
// from its comment, activation emits the path, broken files are listed with their error.
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include "gui/scenario_browser.hpp"
#include "tests/gui/docks_test_support.hpp"

namespace cf::gui::test {

namespace {

const QString kBundled = QStringLiteral(CELLFORGE_SOURCE_DIR "/assets/scenarios");

QTreeWidgetItem* groupItem(QTreeWidget* tree, const QString& model) {
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        if (tree->topLevelItem(i)->data(0, Qt::UserRole + 2).toString() == model)
            return tree->topLevelItem(i);
    return nullptr;
}

QTreeWidgetItem* scenarioItem(QTreeWidget* tree, const QString& path) {
    for (int g = 0; g < tree->topLevelItemCount(); ++g)
        for (int i = 0; i < tree->topLevelItem(g)->childCount(); ++i)
            if (tree->topLevelItem(g)->child(i)->data(0, Qt::UserRole).toString() == path)
                return tree->topLevelItem(g)->child(i);
    return nullptr;
}

void writeFile(const QString& path, const QByteArray& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

}  // namespace

class ScenarioBrowserTest : public QObject {
    Q_OBJECT
private slots:
    void commentGivesTitleAndDescription() {
        const ScenarioComment c = parseScenarioComment(
            "# SPDX-License-Identifier: GPL-3.0-or-later\n"
            "# Big run, table 3: 1000 cells on the\n"
            "# benchmark domain. Seconds on a GPU.\n"
            "# Other rows with the same file:\n"
            "#   movement only: --set network.enabled=false\n"
            "#\n"
            "# Notes.\n"
            "model = \"epidermis\"\n"
            "# not part of the header\n",
            "fallback");
        QCOMPARE(c.title, QString("Big run, table 3"));
        QCOMPARE(c.description, QString("1000 cells on the benchmark domain. Seconds on a GPU."));
        QVERIFY(c.full.startsWith("Big run, table 3:"));
        QVERIFY(c.full.contains("  movement only"));
        QVERIFY(c.full.endsWith("Notes."));
        QVERIFY(!c.full.contains("SPDX"));
        QVERIFY(!c.full.contains("not part"));

        const ScenarioComment none = parseScenarioComment("model = \"brownian\"\n", "plain");
        QCOMPARE(none.title, QString("plain"));
        QVERIFY(none.description.isEmpty());
    }

    void listsEveryBundledScenarioByModel() {
        ScenarioBrowser browser;
        browser.setDirectory(kBundled);
        const QStringList files = QDir(kBundled).entryList({"*.toml"}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 2);
        QCOMPARE(static_cast<qsizetype>(browser.entries().size()), files.size());
        const ModelRegistry models = builtinModels();
        QTreeWidget* tree = browser.tree();
        for (const ScenarioEntry& e : browser.entries()) {
            QVERIFY2(e.error.isEmpty(), qPrintable(e.path + ": " + e.error));
            QVERIFY2(!e.comment.description.isEmpty(), qPrintable(e.path));
            QVERIFY(models.find(e.model.toStdString()) != nullptr);
            QTreeWidgetItem* item = scenarioItem(tree, e.path);
            QVERIFY2(item != nullptr, qPrintable(e.path));
            QCOMPARE(item->parent(), groupItem(tree, e.model));
            // Every bundled file says what it demonstrates and what it reproduces: two lines
            // under the title.
            QVERIFY2(!e.demonstrates.isEmpty() && !e.reproduces.isEmpty(), qPrintable(e.path));
            const QStringList lines = item->text(0).split('\n');
            QCOMPARE(lines.size(), 3);
            QCOMPARE(lines[1], e.demonstrates);
            QCOMPARE(lines[2], e.reproduces);
            QVERIFY(item->toolTip(0).contains(e.name + ".toml"));
            QVERIFY(item->toolTip(0).contains(e.comment.title.toHtmlEscaped()));
            QVERIFY(item->toolTip(0).contains(e.comment.description.left(30).toHtmlEscaped()));
        }
        // The default scenario under brownian, with the text of its comment.
        const QString def = QFileInfo(kBundled + "/default.toml").absoluteFilePath();
        QTreeWidgetItem* item = scenarioItem(tree, def);
        QVERIFY(item != nullptr);
        QCOMPARE(item->parent()->data(0, Qt::UserRole + 2).toString(), QString("brownian"));
        const auto it = std::find_if(browser.entries().begin(), browser.entries().end(),
                                     [&](const ScenarioEntry& e) { return e.path == def; });
        QCOMPARE(it->comment.title, QString("Brownian particles"));  // [about] title
        QVERIFY(it->comment.description.startsWith("20,000 Brownian particles"));
        // Under its model's heading a title drops the model's name; natural order.
        const QString movement =
            QFileInfo(kBundled + "/epidermis-movement.toml").absoluteFilePath();
        if (QFileInfo::exists(movement)) {
            QTreeWidgetItem* m = scenarioItem(tree, movement);
            QVERIFY2(m->text(0).startsWith("Epidermal mechanics\nSubcellular-element cells"),
                     qPrintable(m->text(0)));
        }
        QStringList order;
        for (const ScenarioEntry& e : browser.entries())
            order << e.name;
        if (order.contains("epidermis-table3-128") && order.contains("epidermis-table3-1000"))
            QVERIFY(order.indexOf("epidermis-table3-128") < order.indexOf("epidermis-table3-1000"));
        QVERIFY(browser.selectPath(def));
        const QString details = browser.findChild<QLabel*>("scenarioDetails")->text();
        QVERIFY(details.contains("20,000 Brownian"));
        QVERIFY(details.contains("<i>Reproduces:</i> No paper"));
        saveShot(browser, "scenario_browser", 460, 820);
    }

    void modelsAreListedWithTheirDescriptions() {
        ScenarioBrowser browser;
        browser.setDirectory(kBundled);
        const ModelRegistry models = builtinModels();
        for (const ModelDescriptor& m : models.all()) {
            QTreeWidgetItem* group = groupItem(browser.tree(), QString::fromStdString(m.name));
            QVERIFY(group != nullptr);
            QVERIFY(group->text(0).contains(QString::fromStdString(m.description)));
            browser.tree()->setCurrentItem(group);
            QVERIFY(browser.findChild<QLabel*>("scenarioDetails")
                        ->text()
                        .contains(QString::fromStdString(m.description).toHtmlEscaped()));
            QVERIFY(browser.currentPath().isEmpty());  // a model is not a scenario
        }
    }

    void activationEmitsThePath() {
        ScenarioBrowser browser;
        browser.setDirectory(kBundled);
        browser.resize(400, 700);
        browser.show();
        QVERIFY(QTest::qWaitForWindowExposed(&browser));
        QSignalSpy chosen(&browser, &ScenarioBrowser::scenarioChosen);
        const QString path = QFileInfo(kBundled + "/epidermis-movement.toml").absoluteFilePath();
        QTreeWidget* tree = browser.tree();
        QTreeWidgetItem* item = scenarioItem(tree, path);
        QVERIFY(item != nullptr);
        tree->scrollToItem(item);
        const QPoint centre = tree->visualItemRect(item).center();
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, centre);
        QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, centre);
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen.at(0).at(0).toString(), path);

        QVERIFY(browser.selectPath(kBundled + "/default.toml"));
        browser.findChild<QPushButton*>("openScenario")->click();
        QCOMPARE(chosen.count(), 2);
        QCOMPARE(chosen.at(1).at(0).toString(),
                 QFileInfo(kBundled + "/default.toml").absoluteFilePath());

        // A model row does not open anything.
        tree->setCurrentItem(groupItem(tree, "brownian"));
        QVERIFY(!browser.findChild<QPushButton*>("openScenario")->isEnabled());
        browser.openCurrent();
        QCOMPARE(chosen.count(), 2);
    }

    void brokenFilesAreListedWithTheirError() {
        QTemporaryDir dir;
        QFile::copy(kBundled + "/default.toml", dir.filePath("good.toml"));
        writeFile(dir.filePath("broken.toml"),
                  "# A broken file: the list never closes.\nmodel = \"brownian\"\nseed = [1,\n");
        writeFile(dir.filePath("unknown.toml"), "# Unknown: no such model.\nmodel = \"nosuch\"\n");
        writeFile(dir.filePath("nomodel.toml"), "seed = 3\n");
        QDir(dir.path()).mkdir("thumbnails");
        QImage thumb(192, 108, QImage::Format_RGB32);
        thumb.fill(Qt::red);
        QVERIFY(thumb.save(dir.filePath("thumbnails/good.png")));

        ScenarioBrowser browser;
        browser.setDirectory(dir.path());
        QCOMPARE(static_cast<int>(browser.entries().size()), 4);
        QSignalSpy chosen(&browser, &ScenarioBrowser::scenarioChosen);
        int broken = 0;
        for (const ScenarioEntry& e : browser.entries()) {
            QTreeWidgetItem* item = scenarioItem(browser.tree(), e.path);
            QVERIFY2(item != nullptr, qPrintable(e.path));
            if (e.name == "good") {
                QVERIFY(e.error.isEmpty());
                QCOMPARE(e.thumbnail, dir.filePath("thumbnails/good.png"));
                QCOMPARE(item->parent()->data(0, Qt::UserRole + 2).toString(), QString("brownian"));
                continue;
            }
            ++broken;
            QVERIFY2(!e.error.isEmpty(), qPrintable(e.name));
            QVERIFY(e.thumbnail.isEmpty());
            QCOMPARE(item->toolTip(0), e.error);
            QVERIFY(item->text(0).contains("cannot be loaded"));
            QVERIFY(!item->icon(0).isNull());
            browser.tree()->setCurrentItem(item);
            QVERIFY(!browser.findChild<QPushButton*>("openScenario")->isEnabled());
            browser.openCurrent();
            QCOMPARE(chosen.count(), 0);
        }
        QCOMPARE(broken, 3);
        // Grouped by the model key where the file names one, even when it does not load.
        const auto find = [&](const QString& name) {
            return *std::find_if(browser.entries().begin(), browser.entries().end(),
                                 [&](const ScenarioEntry& e) { return e.name == name; });
        };
        QCOMPARE(find("broken").model, QString("brownian"));
        QVERIFY2(find("broken").error.contains("broken.toml"), qPrintable(find("broken").error));
        QCOMPARE(find("unknown").model, QString("nosuch"));
        QVERIFY2(find("unknown").error.contains("nosuch"), qPrintable(find("unknown").error));
        QVERIFY(groupItem(browser.tree(), "nosuch") != nullptr);
        QVERIFY(browser.selectPath(dir.filePath("broken.toml")));
        saveShot(browser, "scenario_browser_broken", 460, 700);
    }
};

int runScenarioBrowserTests(int argc, char** argv) {
    ScenarioBrowserTest t;
    return QTest::qExec(&t, argc, argv);
}

}  // namespace cf::gui::test

#include "test_scenario_browser.moc"
