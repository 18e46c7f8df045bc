// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Editors for text parameters (ParamType::Text) in the parameter panel. Both commit the
// way the spin boxes do: once per Enter or when the editor loses focus, and only when the
// text differs from the committed one; Escape puts the committed text back.
//
// TextParamEdit: free text (a reaction network, species names). One line high for one
// line of text, growing with its lines up to kMaxVisibleLines, then scrolling. Enter
// commits; Shift+Enter (or Ctrl+Enter) starts a new line.
//
// FilePathEdit: one line and a "..." button opening a file chooser. A relative path typed
// in is made absolute against the base directory (the scenario's), the way a scenario file
// reads it.
#include <QPlainTextEdit>
#include <QString>
#include <QWidget>
#include <functional>

class QLineEdit;
class QToolButton;

namespace cf::gui {

class TextParamEdit : public QPlainTextEdit {
    Q_OBJECT
public:
    static constexpr int kMaxVisibleLines = 6;

    explicit TextParamEdit(QWidget* parent = nullptr);

    // Shows `text` as the committed value (no signal).
    void setCommittedText(const QString& text);
    const QString& committedText() const { return committed_; }
    // Emits committed() if the shown text differs from the committed one (Enter, focus out).
    void commit();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void committed(const QString& text);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

private:
    void fitHeight();
    int heightForLines(int lines) const;
    QString committed_;
};

class FilePathEdit : public QWidget {
    Q_OBJECT
public:
    // Returns the chosen file ("" when cancelled); `start` is where the chooser opens.
    using Chooser = std::function<QString(QWidget* parent, const QString& start)>;

    explicit FilePathEdit(QWidget* parent = nullptr);

    void setCommittedText(const QString& path);
    const QString& committedText() const { return committed_; }
    // Relative paths typed in are taken relative to this directory (default: the working
    // directory); the chooser opens there when the field is empty.
    void setBaseDirectory(const QString& directory) { base_ = directory; }
    // Replaces the file dialog (tests; a platform-specific chooser).
    void setChooser(Chooser chooser) { chooser_ = std::move(chooser); }
    // Commits the line edit's text (made absolute) if it differs from the committed one.
    void commit();
    // Opens the chooser and commits what was chosen.
    void browse();

    QLineEdit* lineEdit() const { return line_; }
    QToolButton* browseButton() const { return button_; }

signals:
    void committed(const QString& path);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QString absolute(const QString& path) const;
    QLineEdit* line_ = nullptr;
    QToolButton* button_ = nullptr;
    QString committed_;
    QString base_;
    Chooser chooser_;
};

}  // namespace cf::gui
