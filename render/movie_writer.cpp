// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/movie_writer.hpp"

#include <filesystem>

#include "render/render_error.hpp"

#if CELLFORGE_HAVE_FFMPEG
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}
#endif

namespace cf::render {

#if !CELLFORGE_HAVE_FFMPEG

bool movieSupport() {
    return false;
}
struct MovieWriter::Impl {};
MovieWriter::MovieWriter(const std::filesystem::path& path, int, int, int) : path_(path) {
    throw RenderError(path.string() + ": this build has no movie support (FFmpeg libraries)");
}
MovieWriter::~MovieWriter() = default;
void MovieWriter::addFrame(const std::vector<std::uint8_t>&) {}
void MovieWriter::finish() {}
MovieInfo probeMovie(const std::filesystem::path& path) {
    throw RenderError(path.string() + ": this build has no movie support (FFmpeg libraries)");
}

#else

bool movieSupport() {
    return true;
}

namespace {
std::string avError(int code) {
    char buf[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, buf, sizeof buf);
    return buf;
}
}  // namespace

struct MovieWriter::Impl {
    AVFormatContext* format = nullptr;
    AVCodecContext* codec = nullptr;
    AVStream* stream = nullptr;
    AVFrame* frame = nullptr;
    AVPacket* packet = nullptr;
    SwsContext* sws = nullptr;
    int width = 0, height = 0;
    bool finished = false;

    void drain(const std::filesystem::path& path) {
        for (;;) {
            const int r = avcodec_receive_packet(codec, packet);
            if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return;
            if (r < 0) throw RenderError(path.string() + ": encoding failed: " + avError(r));
            // One frame long: without a duration the last frame has none, and players
            // running at a constant rate drop it.
            packet->duration = 1;
            av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
            packet->stream_index = stream->index;
            const int w = av_interleaved_write_frame(format, packet);
            if (w < 0) throw RenderError(path.string() + ": writing failed: " + avError(w));
            // Writes are buffered: a full disk shows first as the I/O context's error.
            if (format->pb != nullptr && format->pb->error < 0)
                throw RenderError(path.string() +
                                  ": writing failed: " + avError(format->pb->error));
        }
    }
    void release() {
        if (sws != nullptr) sws_freeContext(sws);
        av_frame_free(&frame);
        av_packet_free(&packet);
        avcodec_free_context(&codec);
        if (format != nullptr) {
            if (format->pb != nullptr) avio_closep(&format->pb);
            avformat_free_context(format);
        }
        sws = nullptr;
        format = nullptr;
    }
};

MovieWriter::MovieWriter(const std::filesystem::path& path, int width, int height, int fps)
    : impl_(std::make_unique<Impl>()), path_(path), partPath_(path.string() + ".part") {
    av_log_set_level(AV_LOG_QUIET);  // library code does not print; errors are thrown
    Impl& m = *impl_;
    auto fail = [&](const std::string& what) {
        m.release();
        std::error_code ignored;
        std::filesystem::remove(partPath_, ignored);
        throw RenderError(path.string() + ": " + what);
    };
    if (width < 2 || height < 2 || width % 2 != 0 || height % 2 != 0)
        fail("H.264 needs an even width and height, got " + std::to_string(width) + "x" +
             std::to_string(height));
    m.width = width;
    m.height = height;
    if (avformat_alloc_output_context2(&m.format, nullptr, "mp4", path.c_str()) < 0)
        fail("cannot set up an MP4 container");
    const AVCodec* encoder = avcodec_find_encoder_by_name("libx264");
    if (encoder == nullptr) encoder = avcodec_find_encoder(AV_CODEC_ID_H264);
    if (encoder == nullptr) fail("no H.264 encoder in this FFmpeg (libx264)");
    codec_ = encoder->name;
    m.stream = avformat_new_stream(m.format, nullptr);
    m.codec = avcodec_alloc_context3(encoder);
    m.codec->width = width;
    m.codec->height = height;
    m.codec->time_base = AVRational{1, fps};
    m.codec->framerate = AVRational{fps, 1};
    m.codec->pix_fmt = AV_PIX_FMT_YUV420P;
    m.codec->gop_size = 2 * fps;
    if (m.format->oformat->flags & AVFMT_GLOBALHEADER)
        m.codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    av_opt_set(m.codec->priv_data, "preset", "medium", 0);
    av_opt_set(m.codec->priv_data, "crf", "18", 0);  // visually lossless for figures
    int r = avcodec_open2(m.codec, encoder, nullptr);
    if (r < 0) fail("cannot open the encoder: " + avError(r));
    avcodec_parameters_from_context(m.stream->codecpar, m.codec);
    m.stream->time_base = m.codec->time_base;
    m.stream->avg_frame_rate = m.codec->framerate;
    // Written as NAME.part and renamed by finish(): a movie under its own name is complete.
    r = avio_open(&m.format->pb, partPath_.c_str(), AVIO_FLAG_WRITE);
    if (r < 0) fail("cannot create the file: " + avError(r));
    r = avformat_write_header(m.format, nullptr);
    if (r < 0) fail("cannot write the MP4 header: " + avError(r));
    m.frame = av_frame_alloc();
    m.frame->format = AV_PIX_FMT_YUV420P;
    m.frame->width = width;
    m.frame->height = height;
    av_frame_get_buffer(m.frame, 0);
    m.packet = av_packet_alloc();
    m.sws = sws_getContext(width, height, AV_PIX_FMT_RGBA, width, height, AV_PIX_FMT_YUV420P,
                           SWS_BICUBIC, nullptr, nullptr, nullptr);
    if (m.sws == nullptr) fail("cannot set up the colour conversion");
}

void MovieWriter::addFrame(const std::vector<std::uint8_t>& rgba) {
    Impl& m = *impl_;
    if (m.finished) throw RenderError(path_.string() + ": frame added after finish()");
    if (rgba.size() != static_cast<std::size_t>(m.width) * static_cast<std::size_t>(m.height) * 4)
        throw RenderError(path_.string() + ": frame of " + std::to_string(rgba.size()) +
                          " bytes does not match " + std::to_string(m.width) + "x" +
                          std::to_string(m.height));
    av_frame_make_writable(m.frame);
    const std::uint8_t* src[1] = {rgba.data()};
    const int stride[1] = {4 * m.width};
    sws_scale(m.sws, src, stride, 0, m.height, m.frame->data, m.frame->linesize);
    m.frame->pts = frames_++;
    const int r = avcodec_send_frame(m.codec, m.frame);
    if (r < 0) throw RenderError(path_.string() + ": encoding failed: " + avError(r));
    m.drain(path_);
}

void MovieWriter::finish() {
    Impl& m = *impl_;
    if (m.finished) return;
    m.finished = true;
    // Anything that fails from here leaves no movie: an MP4 without its index (written
    // last) does not play, and a partial file must not pass for the movie.
    // `message` names the file and the failure.
    auto discard = [&](const std::string& message) {
        m.release();
        std::error_code ignored;
        std::filesystem::remove(partPath_, ignored);
        throw RenderError(message + " (after " + std::to_string(frames_) +
                          " frames; the incomplete movie was removed)");
    };
    try {
        avcodec_send_frame(m.codec, nullptr);  // flush the encoder
        m.drain(path_);
    } catch (const RenderError& e) {
        discard(e.what());
    }
    int r = av_write_trailer(m.format);
    if (r >= 0 && m.format->pb != nullptr) r = avio_closep(&m.format->pb);
    if (r < 0) discard(path_.string() + ": cannot finalize the MP4: " + avError(r));
    m.release();
    std::error_code ec;
    std::filesystem::rename(partPath_, path_, ec);
    if (ec) {
        std::filesystem::remove(partPath_, ec);
        throw RenderError(path_.string() +
                          ": cannot move the finished movie into place: " + ec.message());
    }
}

MovieWriter::~MovieWriter() {
    try {
        finish();  // an interrupted run still leaves a playable file
    } catch (...) {
        impl_->release();  // finish() removed what could not be completed
    }
}

MovieInfo probeMovie(const std::filesystem::path& path) {
    av_log_set_level(AV_LOG_QUIET);
    AVFormatContext* format = nullptr;
    int r = avformat_open_input(&format, path.c_str(), nullptr, nullptr);
    if (r < 0) throw RenderError(path.string() + ": cannot open movie: " + avError(r));
    avformat_find_stream_info(format, nullptr);
    const int video = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    if (video < 0) {
        avformat_close_input(&format);
        throw RenderError(path.string() + ": no video stream");
    }
    const AVCodecParameters* par = format->streams[video]->codecpar;
    MovieInfo info;
    info.width = par->width;
    info.height = par->height;
    info.codec = avcodec_get_name(par->codec_id);
    const AVStream* st = format->streams[video];
    if (st->duration != AV_NOPTS_VALUE)
        info.seconds = static_cast<double>(st->duration) * av_q2d(st->time_base);
    info.frameRate = av_q2d(st->avg_frame_rate);
    // Count packets: exact for a freshly written file (one packet per frame).
    AVPacket* packet = av_packet_alloc();
    while (av_read_frame(format, packet) >= 0) {
        if (packet->stream_index == video) ++info.frames;
        av_packet_unref(packet);
    }
    av_packet_free(&packet);
    avformat_close_input(&format);
    return info;
}

#endif

}  // namespace cf::render
