// SPDX-License-Identifier: GPL-3.0-or-later
// RecordDialog (presets, validation messages), RecordingProgress, and MovieRecorder: the
// frames it takes end up in a playable H.264 movie of the chosen size (read back with
// render::probeMovie), also when cancelled.
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "gui/movie_recorder.hpp"
#include "gui/record_dialog.hpp"
#include "render/movie_writer.hpp"
#include "tests/gui/docks_test_support.hpp"

namespace cf::gui::test {

namespace {

// A frame whose content changes with k, so the encoder has something to encode.
QImage testFrame(int w, int h, int k, QImage::Format format) {
    QImage image(w, h, QImage::Format_RGBA8888);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            image.setPixelColor(x, y, QColor((x + 4 * k) % 256, (y * 2) % 256, (16 * k) % 256));
    return image.convertToFormat(format);
}

QString okButtonState(RecordDialog& d) {
    return d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled() ? "enabled"
                                                                                       : "disabled";
}

}  // namespace

class RecordDialogTest : public QObject {
    Q_OBJECT
private slots:
    void presetsSetSizes() {
        RecordDialog d;
        d.setPreset(RecordDialog::Preset::HD720);
        QCOMPARE(d.settings().width, 1280);
        QCOMPARE(d.settings().height, 720);
        d.setPreset(RecordDialog::Preset::UHD4K);
        QCOMPARE(QSize(d.settings().width, d.settings().height), QSize(3840, 2160));
        d.setPreset(RecordDialog::Preset::HD1080);
        QCOMPARE(QSize(d.settings().width, d.settings().height), QSize(1920, 1080));
        // Editing the size leaves the preset; a preset's size picks it again.
        d.findChild<QSpinBox*>("width")->setValue(1000);
        QCOMPARE(d.preset(), RecordDialog::Preset::Custom);
        QCOMPARE(d.settings().width, 1000);
        d.findChild<QSpinBox*>("width")->setValue(1280);
        d.findChild<QSpinBox*>("height")->setValue(720);
        QCOMPARE(d.preset(), RecordDialog::Preset::HD720);
        // Custom keeps whatever size is there.
        d.setPreset(RecordDialog::Preset::Custom);
        QCOMPARE(QSize(d.settings().width, d.settings().height), QSize(1280, 720));
    }

    void oddSizeIsRejectedWithAMessage() {
        QTemporaryDir dir;
        RecordSettings s;
        s.path = dir.filePath("movie.mp4");
        s.width = 1281;
        s.height = 720;
        RecordDialog d(s);
        const QString message = d.validationMessage();
        QVERIFY2(
            message.contains("even") && message.contains("1281x720") && message.contains("width"),
            qPrintable(message));
        QCOMPARE(d.findChild<QLabel*>("message")->text(), message);
        QCOMPARE(okButtonState(d), QString("disabled"));
        d.accept();
        QCOMPARE(d.result(), int(QDialog::Rejected));  // still open, not accepted
        saveShot(d, "record_dialog_odd", 560, 330);

        s.width = 1280;
        s.height = 719;
        QVERIFY(validateRecordSettings(s).contains("odd height"));
        s.height = 720;
        QCOMPARE(validateRecordSettings(s), QString());
        if (!render::movieSupport()) QSKIP("this build has no FFmpeg: the dialog cannot accept");
        d.setSettings(s);
        QCOMPARE(d.validationMessage(), QString());
        QCOMPARE(okButtonState(d), QString("enabled"));
        QVERIFY(d.findChild<QLabel*>("message")->isHidden());
        d.accept();
        QCOMPARE(d.result(), int(QDialog::Accepted));
    }

    void otherProblemsAreNamed() {
        QTemporaryDir dir;
        RecordSettings s;
        s.path = "";
        QVERIFY(validateRecordSettings(s).contains("Choose a file"));
        s.path = dir.filePath("no/such/folder/movie.mp4");
        QVERIFY(validateRecordSettings(s).contains("does not exist"));
        s.path = dir.filePath("movie.avi");
        QVERIFY(validateRecordSettings(s).contains(".mp4"));
        s.path = dir.filePath("movie.mp4");
        s.width = 8;
        QVERIFY(validateRecordSettings(s).contains("16 to 7680"));
        s.width = 1920;
        s.fps = 0;
        QVERIFY(validateRecordSettings(s).contains("frame rate"));
        s.fps = 30;
        s.durationFrames = 0;
        QVERIFY(validateRecordSettings(s).contains("at least 1 frame"));
        s.durationFrames = 90;
        QFile bad(dir.filePath("path.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("[{\"time\": 0, \"distance\": -1}]");
        bad.close();
        s.cameraPathFile = bad.fileName();
        QVERIFY2(validateRecordSettings(s).contains("path.json is not valid"),
                 qPrintable(validateRecordSettings(s)));
        s.cameraPathFile = dir.filePath("missing.json");
        QVERIFY(validateRecordSettings(s).contains("Cannot read the camera path"));
        QFile good(dir.filePath("good.json"));
        QVERIFY(good.open(QIODevice::WriteOnly));
        good.write(R"([{"time": 0, "target": [0,0,0], "distance": 10, "yaw": 0, "pitch": 20},
                      {"time": 3, "target": [0,0,0], "distance": 12, "yaw": 90, "pitch": 30}])");
        good.close();
        s.cameraPathFile = good.fileName();
        QCOMPARE(validateRecordSettings(s), QString());

        // The dialog round-trips settings and completes a bare file name with .mp4.
        RecordDialog d(s);
        const RecordSettings back = d.settings();
        QCOMPARE(back.path, s.path);
        QCOMPARE(back.cameraPathFile, s.cameraPathFile);
        QCOMPARE(back.durationFrames, std::optional<int>(90));
        QCOMPARE(back.fps, 30);
        s.path = dir.filePath("bare");
        s.fps = 25;  // not a listed rate: kept
        s.durationFrames.reset();
        s.cameraPathFile.reset();
        d.setSettings(s);
        QCOMPARE(d.settings().path, dir.filePath("bare.mp4"));
        QCOMPARE(d.settings().fps, 25);
        QVERIFY(!d.settings().durationFrames);
        QVERIFY(!d.settings().cameraPathFile);
        saveShot(d, "record_dialog_ok", 560, 330);
    }

    // Captions: the title and the time stamp round-trip through the form (the time stamp is
    // on by default), and a title with a line break keeps Record disabled, saying why.
    void captionsRoundTripAndABadTitleIsRefused() {
        QTemporaryDir dir;
        RecordSettings s;
        s.path = dir.filePath("captioned.mp4");
        QVERIFY(s.timestamp);
        s.title = QStringLiteral("Spheroid, 37 \u00B0C");
        s.timestamp = false;
        RecordDialog d(s);
        QCOMPARE(d.settings().title, s.title);
        QVERIFY(!d.settings().timestamp);
        auto* title = d.findChild<QLineEdit*>("title");
        auto* stamp = d.findChild<QCheckBox*>("timestamp");
        QVERIFY(title != nullptr && stamp != nullptr);
        stamp->setChecked(true);
        QVERIFY(d.settings().timestamp);
        QVERIFY(d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled());
        s.title = QStringLiteral("two\nlines");
        QVERIFY2(validateRecordSettings(s).contains("control character"),
                 qPrintable(validateRecordSettings(s)));
        d.setSettings(s);
        QVERIFY(!d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled());
        QVERIFY(d.findChild<QLabel*>("message")->text().contains("title"));
    }

    void progressShowsFramesAndCancels() {
        RecordingProgress p;
        QSignalSpy cancel(&p, &RecordingProgress::cancelRequested);
        RecordSettings s;
        s.path = "/tmp/run.mp4";
        s.fps = 30;
        s.durationFrames = 120;
        p.start(s);
        p.setFramesWritten(45);
        QCOMPARE(p.findChild<QProgressBar*>()->value(), 45);
        QCOMPARE(p.findChild<QProgressBar*>()->maximum(), 120);
        QVERIFY2(p.statusText().contains("45 / 120 frames") && p.statusText().contains("1.5 s"),
                 qPrintable(p.statusText()));
        saveShot(p, "recording_progress", 620, 40);
        p.findChild<QPushButton*>("cancelRecording")->click();
        QCOMPARE(cancel.count(), 1);
        p.finish("saved run.mp4 (45 frames)");
        QVERIFY(!p.isRunning());
        QCOMPARE(p.statusText(), QString("saved run.mp4 (45 frames)"));
        QVERIFY(!p.findChild<QPushButton*>("cancelRecording")->isEnabled());

        s.durationFrames.reset();  // until stopped: a busy bar, a Stop button
        p.start(s);
        QCOMPARE(p.findChild<QProgressBar*>()->maximum(), 0);
        QCOMPARE(p.findChild<QPushButton*>("cancelRecording")->text(), QString("Stop"));
        p.setFramesWritten(7);
        QVERIFY(p.statusText().contains("7 frames"));
    }

    void recorderWritesEveryFrame() {
        if (!render::movieSupport()) QSKIP("this build has no FFmpeg (movieSupport() is false)");
        QTemporaryDir dir;
        RecordSettings s;
        s.path = dir.filePath("frames.mp4");
        s.width = 160;
        s.height = 96;
        s.fps = 24;
        s.stepsPerFrame = 5;
        s.durationFrames = 12;
        MovieRecorder rec(s);
        QVERIFY2(rec.codec().contains("264"), qPrintable(rec.codec()));  // libx264, ...
        const QImage::Format formats[] = {QImage::Format_RGBA8888, QImage::Format_ARGB32,
                                          QImage::Format_RGB888,
                                          QImage::Format_ARGB32_Premultiplied};
        std::uint64_t step = 0;
        int added = 0;
        while (rec.wantsMoreFrames()) {
            QVERIFY(rec.frameDue(step));
            QVERIFY(added == 0 || !rec.frameDue(step - 1));
            rec.addFrame(testFrame(s.width, s.height, added, formats[added % 4]), step);
            ++added;
            QVERIFY(!rec.frameDue(step + 4));
            step += 5;
        }
        QCOMPARE(added, 12);
        QCOMPARE(rec.frames(), 12);
        QCOMPARE(rec.lastStep(), std::optional<std::uint64_t>(55));
        rec.finish();
        rec.finish();  // idempotent
        QCOMPARE(rec.framesWritten(), 12);
        const render::MovieInfo info = render::probeMovie(s.path.toStdString());
        QCOMPARE(info.frames, 12L);
        QCOMPARE(info.width, 160);
        QCOMPARE(info.height, 96);
        QCOMPARE(QString::fromStdString(info.codec), QString("h264"));
        QVERIFY(std::abs(info.frameRate - 24.0) < 1e-6);
        QVERIFY_THROWS_EXCEPTION(RecordingError,
                                 rec.addFrame(testFrame(160, 96, 0, QImage::Format_RGBA8888), 60));
    }

    void cancelledMovieStaysPlayable() {
        if (!render::movieSupport()) QSKIP("this build has no FFmpeg (movieSupport() is false)");
        QTemporaryDir dir;
        RecordSettings s;
        s.path = dir.filePath("cancelled.mp4");
        s.width = 128;
        s.height = 72;
        int written = 0;
        {
            MovieRecorder rec(s);
            for (int k = 0; k < 20; ++k)
                rec.addFrame(testFrame(s.width, s.height, k, QImage::Format_RGBA8888), k);
            rec.cancel();
            written = rec.framesWritten();
            QVERIFY(rec.isFinished());
            QVERIFY(rec.error().isEmpty());
        }
        // Frames still queued when cancelling are dropped (at most the queue's 3).
        QVERIFY2(written >= 17 && written <= 20, qPrintable(QString::number(written)));
        const render::MovieInfo info = render::probeMovie(s.path.toStdString());
        QCOMPARE(info.frames, long(written));
        QCOMPARE(QString::fromStdString(info.codec), QString("h264"));

        // Stopping by destruction (an exception unwinding the recording) also closes it.
        s.path = dir.filePath("dropped.mp4");
        {
            MovieRecorder rec(s);
            for (int k = 0; k < 5; ++k)
                rec.addFrame(testFrame(s.width, s.height, k, QImage::Format_RGBA8888), k);
        }
        QCOMPARE(render::probeMovie(s.path.toStdString()).frames, 5L);
    }

    void recorderErrorsSayWhy() {
        QTemporaryDir dir;
        RecordSettings s;
        s.path = dir.filePath("odd.mp4");
        s.width = 161;
        s.height = 96;
        try {
            MovieRecorder rec(s);
            QFAIL("an odd width was accepted");
        } catch (const RecordingError& e) {
            const QString what = e.what();
            QVERIFY2(what.contains("odd.mp4") &&
                         (what.contains("even") || what.contains("no movie support")),
                     qPrintable(what));
        }
        if (!render::movieSupport()) QSKIP("this build has no FFmpeg (movieSupport() is false)");
        s.width = 160;
        s.path = dir.filePath("size.mp4");
        MovieRecorder rec(s);
        try {
            rec.addFrame(QImage(320, 96, QImage::Format_RGBA8888), 0);
            QFAIL("a frame of the wrong size was accepted");
        } catch (const RecordingError& e) {
            const QString what = e.what();
            QVERIFY2(what.contains("320x96") && what.contains("160x96"), qPrintable(what));
        }
        QVERIFY_THROWS_EXCEPTION(RecordingError, rec.addFrame(QImage(), 0));
        rec.finish();
        QCOMPARE(rec.frames(), 0);
    }
};

int runRecordDialogTests(int argc, char** argv) {
    RecordDialogTest t;
    return QTest::qExec(&t, argc, argv);
}

}  // namespace cf::gui::test

#include "test_record_dialog.moc"
