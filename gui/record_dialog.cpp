// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/record_dialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "render/movie_writer.hpp"

namespace cf::gui {

namespace {

QString clockText(qint64 ms) {
    const qint64 s = ms / 1000;
    return QString("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QChar('0'));
}

}  // namespace

QSize RecordDialog::presetSize(Preset preset) {
    switch (preset) {
        case Preset::HD720:
            return {1280, 720};
        case Preset::HD1080:
            return {1920, 1080};
        case Preset::UHD4K:
            return {3840, 2160};
        case Preset::Custom:
            break;
    }
    return {};
}

RecordDialog::RecordDialog(const RecordSettings& initial, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Record movie"));

    path_ = new QLineEdit(this);
    path_->setObjectName("path");
    path_->setPlaceholderText(tr("movie.mp4"));
    path_->setToolTip(tr("The MP4 (H.264) file to write; an existing file is replaced"));
    auto* browse = new QPushButton(tr("Browse..."), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Record movie to"), path_->text(),
                                                       tr("MP4 movies (*.mp4)"));
        if (!p.isEmpty()) path_->setText(p);
    });
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(path_, 1);
    pathRow->addWidget(browse);

    preset_ = new QComboBox(this);
    preset_->setObjectName("preset");
    preset_->addItem(tr("720p (1280x720)"));
    preset_->addItem(tr("1080p (1920x1080)"));
    preset_->addItem(tr("4K (3840x2160)"));
    preset_->addItem(tr("Custom"));
    preset_->setToolTip(tr("Movie size, independent of the window's size"));
    connect(preset_, &QComboBox::currentIndexChanged, this,
            [this](int i) { setPreset(static_cast<Preset>(i)); });

    auto makeSide = [this](const char* name, const QString& tip) {
        auto* spin = new QSpinBox(this);
        spin->setObjectName(name);
        spin->setRange(2, 16384);  // wider than allowed, so a wrong size is explained
        spin->setSuffix(tr(" px"));
        spin->setToolTip(tip);
        connect(spin, &QSpinBox::valueChanged, this, &RecordDialog::sizeEdited);
        return spin;
    };
    width_ = makeSide("width", tr("Width in pixels: even (H.264), 16 to 7680"));
    height_ = makeSide("height", tr("Height in pixels: even (H.264), 16 to 4320"));
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(preset_, 1);
    sizeRow->addWidget(width_);
    sizeRow->addWidget(new QLabel(QStringLiteral("×"), this));
    sizeRow->addWidget(height_);

    fps_ = new QComboBox(this);
    fps_->setObjectName("fps");
    for (int f : {24, 30, 60})
        fps_->addItem(tr("%1 fps").arg(f), f);
    fps_->setToolTip(tr("Movie frames per second"));
    connect(fps_, &QComboBox::currentIndexChanged, this, &RecordDialog::revalidate);

    stepsPerFrame_ = new QSpinBox(this);
    stepsPerFrame_->setObjectName("stepsPerFrame");
    stepsPerFrame_->setRange(1, 10'000'000);
    stepsPerFrame_->setToolTip(
        tr("Simulation steps between two movie frames: larger values "
           "make a faster-moving movie of a longer run"));
    connect(stepsPerFrame_, &QSpinBox::valueChanged, this, &RecordDialog::revalidate);

    useCameraPath_ = new QCheckBox(tr("Camera path:"), this);
    useCameraPath_->setObjectName("useCameraPath");
    useCameraPath_->setToolTip(
        tr("Move the camera along JSON key frames (times in seconds of "
           "movie); unchecked, the movie shows the viewport's camera"));
    cameraPath_ = new QLineEdit(this);
    cameraPath_->setObjectName("cameraPath");
    cameraPath_->setPlaceholderText(tr("flyover.json"));
    cameraBrowse_ = new QPushButton(tr("Browse..."), this);
    connect(cameraBrowse_, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Camera path"), cameraPath_->text(),
                                                       tr("Camera paths (*.json)"));
        if (!p.isEmpty()) cameraPath_->setText(p);
    });
    connect(useCameraPath_, &QCheckBox::toggled, this, &RecordDialog::revalidate);
    auto* cameraRow = new QHBoxLayout;
    cameraRow->addWidget(cameraPath_, 1);
    cameraRow->addWidget(cameraBrowse_);

    untilStopped_ = new QRadioButton(tr("Until stopped"), this);
    untilStopped_->setObjectName("untilStopped");
    fixedLength_ = new QRadioButton(tr("Frames:"), this);
    fixedLength_->setObjectName("fixedLength");
    frames_ = new QSpinBox(this);
    frames_->setObjectName("durationFrames");
    frames_->setRange(1, 10'000'000);
    frames_->setToolTip(tr("Number of movie frames; the recording stops by itself after them"));
    connect(fixedLength_, &QRadioButton::toggled, this, &RecordDialog::revalidate);
    connect(frames_, &QSpinBox::valueChanged, this, &RecordDialog::revalidate);
    auto* lengthRow = new QHBoxLayout;
    lengthRow->addWidget(untilStopped_);
    lengthRow->addWidget(fixedLength_);
    lengthRow->addWidget(frames_);
    lengthRow->addStretch(1);

    title_ = new QLineEdit(this);
    title_->setObjectName("title");
    title_->setPlaceholderText(tr("none"));
    title_->setToolTip(
        tr("One line drawn top left in every frame (and in screenshots), sized to the "
           "movie"));
    connect(title_, &QLineEdit::textChanged, this, &RecordDialog::revalidate);
    timestamp_ = new QCheckBox(tr("Time stamp (t = 41.9 s \u00B7 step 3200)"), this);
    timestamp_->setObjectName("timestamp");
    timestamp_->setToolTip(
        tr("The simulated time and step of each frame, under the title (also in "
           "screenshots)"));

    connect(path_, &QLineEdit::textChanged, this, &RecordDialog::revalidate);
    connect(cameraPath_, &QLineEdit::textChanged, this, &RecordDialog::revalidate);

    summary_ = new QLabel(this);
    summary_->setObjectName("summary");
    summary_->setWordWrap(true);
    message_ = new QLabel(this);
    message_->setObjectName("message");
    message_->setWordWrap(true);
    message_->setStyleSheet("color: #b41e1e;");

    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Record"));
    connect(buttons_, &QDialogButtonBox::accepted, this, &RecordDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &RecordDialog::reject);

    auto* form = new QFormLayout;
    form->addRow(tr("File:"), pathRow);
    form->addRow(tr("Size:"), sizeRow);
    form->addRow(tr("Frame rate:"), fps_);
    form->addRow(tr("Steps per frame:"), stepsPerFrame_);
    form->addRow(useCameraPath_, cameraRow);
    form->addRow(tr("Length:"), lengthRow);
    form->addRow(tr("Title:"), title_);
    form->addRow(QString(), timestamp_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(summary_);
    layout->addWidget(message_);
    layout->addWidget(buttons_);

    setSettings(initial);
}

RecordDialog::~RecordDialog() = default;

void RecordDialog::setSettings(const RecordSettings& s) {
    settingPreset_ = true;
    path_->setText(s.path);
    width_->setValue(s.width);
    height_->setValue(s.height);
    settingPreset_ = false;
    sizeEdited();
    int fpsIndex = fps_->findData(s.fps);
    if (fpsIndex < 0) {  // a rate from elsewhere (a saved setting) stays choosable
        fps_->addItem(tr("%1 fps").arg(s.fps), s.fps);
        fpsIndex = fps_->count() - 1;
    }
    fps_->setCurrentIndex(fpsIndex);
    stepsPerFrame_->setValue(s.stepsPerFrame);
    useCameraPath_->setChecked(s.cameraPathFile.has_value());
    cameraPath_->setText(s.cameraPathFile.value_or(QString()));
    (s.durationFrames ? fixedLength_ : untilStopped_)->setChecked(true);
    frames_->setValue(s.durationFrames.value_or(300));
    title_->setText(s.title);
    timestamp_->setChecked(s.timestamp);
    revalidate();
}

RecordSettings RecordDialog::settings() const {
    RecordSettings s;
    s.path = path_->text().trimmed();
    if (!s.path.isEmpty() && QFileInfo(s.path).suffix().isEmpty()) s.path += ".mp4";
    s.width = width_->value();
    s.height = height_->value();
    s.fps = fps_->currentData().toInt();
    s.stepsPerFrame = stepsPerFrame_->value();
    if (useCameraPath_->isChecked()) s.cameraPathFile = cameraPath_->text().trimmed();
    if (fixedLength_->isChecked()) s.durationFrames = frames_->value();
    s.title = title_->text().trimmed();
    s.timestamp = timestamp_->isChecked();
    return s;
}

void RecordDialog::setPreset(Preset preset) {
    preset_->setCurrentIndex(static_cast<int>(preset));
    const QSize size = presetSize(preset);
    if (size.isValid()) {
        settingPreset_ = true;
        width_->setValue(size.width());
        height_->setValue(size.height());
        settingPreset_ = false;
    }
    revalidate();
}

RecordDialog::Preset RecordDialog::preset() const {
    return static_cast<Preset>(preset_->currentIndex());
}

void RecordDialog::sizeEdited() {
    if (settingPreset_) return;
    Preset match = Preset::Custom;
    for (Preset p : {Preset::HD720, Preset::HD1080, Preset::UHD4K})
        if (presetSize(p) == QSize(width_->value(), height_->value())) match = p;
    preset_->blockSignals(true);
    preset_->setCurrentIndex(static_cast<int>(match));
    preset_->blockSignals(false);
    revalidate();
}

QString RecordDialog::validationMessage() const {
    QString problem = validateRecordSettings(settings());
    if (problem.isEmpty() && !render::movieSupport())
        problem =
            tr("This build cannot record movies: it was built without FFmpeg's "
               "libraries.");
    return problem;
}

void RecordDialog::revalidate() {
    cameraPath_->setEnabled(useCameraPath_->isChecked());
    cameraBrowse_->setEnabled(useCameraPath_->isChecked());
    frames_->setEnabled(fixedLength_->isChecked());
    const RecordSettings s = settings();
    const QString problem = validationMessage();
    message_->setText(problem);
    message_->setVisible(!problem.isEmpty());
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
    QString summary =
        tr("%1%2×%3 at %4 fps, one frame every %5 simulation steps")
            .arg(s.path.isEmpty() ? QString() : QFileInfo(s.path).fileName() + tr(": "))
            .arg(s.width)
            .arg(s.height)
            .arg(s.fps)
            .arg(s.stepsPerFrame);
    if (s.durationFrames)
        summary += tr(": %1 frames make %2 s of movie covering %3 steps.")
                       .arg(*s.durationFrames)
                       .arg(s.durationSeconds(), 0, 'f', 1)
                       .arg(static_cast<qint64>(*s.durationFrames) * s.stepsPerFrame);
    else
        summary += tr("; each second of movie covers %1 steps.")
                       .arg(static_cast<qint64>(s.fps) * s.stepsPerFrame);
    summary_->setText(summary);
}

void RecordDialog::accept() {
    revalidate();
    if (!validationMessage().isEmpty()) return;
    QDialog::accept();
}

RecordingProgress::RecordingProgress(QWidget* parent) : QWidget(parent) {
    bar_ = new QProgressBar(this);
    bar_->setObjectName("recordingBar");
    label_ = new QLabel(this);
    label_->setObjectName("recordingStatus");
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setObjectName("cancelRecording");
    connect(cancel_, &QPushButton::clicked, this, &RecordingProgress::cancelRequested);
    tick_ = new QTimer(this);
    tick_->setInterval(500);
    connect(tick_, &QTimer::timeout, this, &RecordingProgress::updateText);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(label_, 1);
    layout->addWidget(bar_);
    layout->addWidget(cancel_);
    updateText();
}

void RecordingProgress::start(const RecordSettings& settings) {
    settings_ = settings;
    frames_ = 0;
    running_ = true;
    clock_.start();
    finalMs_ = 0;
    if (settings.durationFrames) {
        bar_->setRange(0, *settings.durationFrames);
        bar_->setValue(0);
        cancel_->setText(tr("Cancel"));
        cancel_->setToolTip(tr("End the recording now; the movie keeps the frames so far"));
    } else {
        bar_->setRange(0, 0);  // busy: there is no end to show
        cancel_->setText(tr("Stop"));
        cancel_->setToolTip(tr("End the recording; the movie keeps every frame"));
    }
    cancel_->setEnabled(true);
    tick_->start();
    updateText();
}

void RecordingProgress::setFramesWritten(int frames) {
    frames_ = frames;
    if (settings_.durationFrames) bar_->setValue(std::min(frames, *settings_.durationFrames));
    updateText();
}

void RecordingProgress::finish(const QString& message) {
    finalMs_ = elapsedMs();
    running_ = false;
    tick_->stop();
    cancel_->setEnabled(false);
    if (bar_->maximum() == 0) bar_->setRange(0, 1);
    bar_->setValue(bar_->maximum());
    label_->setText(message);
    label_->setToolTip(message);
}

qint64 RecordingProgress::elapsedMs() const {
    return running_ ? clock_.elapsed() : finalMs_;
}

QString RecordingProgress::statusText() const {
    return label_->text();
}

void RecordingProgress::updateText() {
    if (!running_) {
        if (label_->text().isEmpty()) label_->setText(tr("Not recording"));
        return;
    }
    const QString name = QFileInfo(settings_.path).fileName();
    const QString count = settings_.durationFrames
                              ? tr("%1 / %2 frames").arg(frames_).arg(*settings_.durationFrames)
                              : tr("%1 frames").arg(frames_);
    label_->setText(tr("Recording %1: %2 (%3 s of movie), %4 elapsed")
                        .arg(name, count)
                        .arg(settings_.fps > 0 ? double(frames_) / settings_.fps : 0.0, 0, 'f', 1)
                        .arg(clockText(elapsedMs())));
    label_->setToolTip(QDir::toNativeSeparators(settings_.path));
}

}  // namespace cf::gui
