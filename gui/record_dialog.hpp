// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Record movie...": the dialog that chooses RecordSettings (file, size preset, frame
// rate, simulation steps per frame, optional camera path, length, captions: a title and a
// time stamp, which the window's screenshots then show too), with the problems
// stated under the form and OK enabled only for settings that can be recorded; and
// RecordingProgress, the small widget shown while a recording runs.
#include <QDialog>
#include <QElapsedTimer>
#include <QSize>
#include <QWidget>

#include "gui/movie_recorder.hpp"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTimer;

namespace cf::gui {

class RecordDialog : public QDialog {
    Q_OBJECT
public:
    enum class Preset { HD720, HD1080, UHD4K, Custom };
    static QSize presetSize(Preset preset);  // Custom: an invalid QSize

    explicit RecordDialog(const RecordSettings& initial = {}, QWidget* parent = nullptr);
    ~RecordDialog() override;

    // The form's settings (".mp4" is appended to a file name without a suffix).
    RecordSettings settings() const;
    void setSettings(const RecordSettings& settings);

    // Choosing a preset sets the size; editing the size picks the preset it matches.
    void setPreset(Preset preset);
    Preset preset() const;

    // What keeps OK disabled, empty when the settings can be recorded.
    QString validationMessage() const;

public slots:
    void accept() override;  // refuses (and shows why) while validationMessage() is not empty

private:
    void revalidate();
    void sizeEdited();

    QLineEdit* path_ = nullptr;
    QComboBox* preset_ = nullptr;
    QSpinBox* width_ = nullptr;
    QSpinBox* height_ = nullptr;
    QComboBox* fps_ = nullptr;
    QSpinBox* stepsPerFrame_ = nullptr;
    QCheckBox* useCameraPath_ = nullptr;
    QLineEdit* cameraPath_ = nullptr;
    QPushButton* cameraBrowse_ = nullptr;
    QRadioButton* untilStopped_ = nullptr;
    QRadioButton* fixedLength_ = nullptr;
    QSpinBox* frames_ = nullptr;
    QLineEdit* title_ = nullptr;
    QCheckBox* timestamp_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* message_ = nullptr;
    QDialogButtonBox* buttons_ = nullptr;
    bool settingPreset_ = false;
};

// Shown while recording: a progress bar (busy when recording until stopped), the frames
// written, the seconds of movie and the time elapsed, and a Cancel (or Stop) button. It
// only displays: whoever runs the MovieRecorder feeds it and handles cancelRequested()
// (finish the recorder: the file keeps what was recorded).
class RecordingProgress : public QWidget {
    Q_OBJECT
public:
    explicit RecordingProgress(QWidget* parent = nullptr);

    void start(const RecordSettings& settings);  // resets the count and the clock
    void setFramesWritten(int frames);
    // Stops the clock and shows `message` (e.g. "saved movie.mp4" or an error).
    void finish(const QString& message);

    int framesWritten() const { return frames_; }
    qint64 elapsedMs() const;
    QString statusText() const;
    bool isRunning() const { return running_; }

signals:
    void cancelRequested();

private:
    void updateText();

    RecordSettings settings_;
    QProgressBar* bar_ = nullptr;
    QLabel* label_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QTimer* tick_ = nullptr;
    QElapsedTimer clock_;
    qint64 finalMs_ = 0;
    int frames_ = 0;
    bool running_ = false;
};

}  // namespace cf::gui
