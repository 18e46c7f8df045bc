// SPDX-License-Identifier: GPL-3.0-or-later
// Edits from the Quick panel and the model-text dock whose refusal may come later: the Runner
// checks an edit again on the simulation thread and the model may refuse it there; poll()
// looks at their futures and shows a refusal where the edit was made.
#include <QStatusBar>
#include <algorithm>
#include <chrono>

#include "gui/main_window.hpp"
#include "gui/model_text_editor.hpp"
#include "gui/parameter_panel.hpp"
#include "gui/viewport.hpp"

namespace cf::gui {

void MainWindow::trackEdit(const std::string& key, const ParamValue& value,
                           std::future<void> result, EditSource source) {
    if (result.valid()) trackedEdits_.push_back({key, value, std::move(result), source});
}

void MainWindow::checkTrackedEdits() {
    for (auto it = trackedEdits_.begin(); it != trackedEdits_.end();) {
        if (it->result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
            ++it;
            continue;
        }
        TrackedEdit edit = std::move(*it);
        it = trackedEdits_.erase(it);
        QString reason;
        try {
            edit.result.get();
        } catch (const std::future_error&) {
            // the run went away first
        } catch (const std::exception& e) {
            reason = QString::fromStdString(e.what());
        }
        if (reason.isEmpty() || !runner_) continue;
        // The model refused it between steps: the value in effect is as before.
        const ParamSet inEffect = runner_->parameters();
        const ParamSpec& spec = inEffect.table().at(edit.key);
        const QString key = QString::fromStdString(edit.key);
        QString message = reason;
        if (!message.contains("'" + key + "'"))
            message = tr("parameter '%1' = %2 was refused: %3")
                          .arg(key, QString::fromStdString(summarizeValue(edit.value, 60)), reason);
        if ((spec.type == ParamType::Real || spec.type == ParamType::Integer) &&
            !message.contains(QString::fromStdString(spec.rangeText())))
            message += tr(" (allowed %1)").arg(QString::fromStdString(spec.rangeText()));
        log(Level::Warning, tr("refused: %1").arg(message));
        statusBar()->showMessage(message, 5000);
        // Nothing after this edit of the same parameter in flight: show the value in effect.
        const bool later = std::any_of(trackedEdits_.begin(), trackedEdits_.end(),
                                       [&](const TrackedEdit& e) { return e.key == edit.key; });
        if (!later) parameters_->setValue(edit.key, inEffect.get(edit.key));
        if (edit.source == EditSource::Quick) {
            viewport_->overlay().showRefusal(message.toStdString());
        } else if (scenario_) {
            const ModelDescriptor::EditableText& t = scenario_->model->editableText;
            if (!later) {  // the text in effect is committed again; what was typed stays
                const QString typed = modelText_->text();
                refreshModelText(false);
                if (modelText_->text() != typed) modelText_->editor()->setPlainText(typed);
            }
            modelText_->showError(message, QString::fromStdString(t.parameter));
        }
    }
}

}  // namespace cf::gui
