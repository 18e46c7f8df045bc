// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The editor of a model whose behaviour is text (ModelDescriptor::EditableText: the cardiac
// cell model). The "Model" tab holds the text in a monospaced editor where Enter is a new
// line; Apply (Ctrl+Return) sends it to the running simulation, Revert brings back the text
// in effect. The "Generated CUDA" tab shows, read-only, the code the text compiles to. An
// error shows under the tabs and puts the cursor on the first "line:column" it names.
#include <QString>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;

namespace cf::gui {

class ModelTextEditor : public QWidget {
    Q_OBJECT
public:
    explicit ModelTextEditor(QWidget* parent = nullptr);

    // The text in effect and where it came from ("aliev_panfilov.cfm (bundled)").
    // `keepEdits`: text typed but not applied stays in the editor (another scenario: false).
    void setCommittedText(const QString& text, const QString& origin, bool keepEdits = true);
    void setGenerated(const QString& code);
    QString text() const;
    bool modified() const;
    // An error for the text last applied (or the generated code): shown in red, the cursor
    // moved to the first "<name>:<line>:<col>" of `lineTag` in it.
    void showError(const QString& message, const QString& lineTag);
    void showStatus(const QString& message);

    QPlainTextEdit* editor() const { return edit_; }
    QPlainTextEdit* generatedView() const { return generated_; }
    QPushButton* applyButton() const { return apply_; }
    QLabel* messageLabel() const { return message_; }

signals:
    void applyRequested(const QString& text);

private:
    void updateButtons();

    QTabWidget* tabs_ = nullptr;
    QPlainTextEdit* edit_ = nullptr;
    QPlainTextEdit* generated_ = nullptr;
    QLabel* origin_ = nullptr;
    QLabel* message_ = nullptr;
    QPushButton* apply_ = nullptr;
    QPushButton* revert_ = nullptr;
    QString committed_;
};

}  // namespace cf::gui
