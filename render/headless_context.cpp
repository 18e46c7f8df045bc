// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/headless_context.hpp"

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <vector>

#include "render/render_error.hpp"

namespace cf::render {

namespace {

std::string eglErrorText() {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%04x", static_cast<unsigned>(eglGetError()));
    return buf;
}

bool hasExtension(const char* list, const char* name) {
    if (list == nullptr) return false;
    const std::string all = std::string(" ") + list + " ";
    return all.find(std::string(" ") + name + " ") != std::string::npos;
}

// Candidate displays, best first: EGL devices (NVIDIA, no X), then the surfaceless
// platform (Mesa's llvmpipe; the NVIDIA driver offers it too).
std::vector<std::pair<EGLDisplay, std::string>> candidateDisplays() {
    std::vector<std::pair<EGLDisplay, std::string>> out;
    const char* clientExts = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (hasExtension(clientExts, "EGL_EXT_device_enumeration") &&
        hasExtension(clientExts, "EGL_EXT_platform_device")) {
        EGLDeviceEXT devices[16];
        EGLint count = 0;
        if (eglQueryDevicesEXT(16, devices, &count) == EGL_TRUE) {
            for (EGLint i = 0; i < count; ++i) {
                EGLDisplay d =
                    eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
                if (d != EGL_NO_DISPLAY) out.emplace_back(d, "EGL device " + std::to_string(i));
            }
        }
    }
    if (hasExtension(clientExts, "EGL_MESA_platform_surfaceless")) {
        EGLDisplay d =
            eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
        if (d != EGL_NO_DISPLAY) out.emplace_back(d, "EGL surfaceless platform");
    }
    return out;
}

}  // namespace

struct HeadlessContext::Impl {
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
    bool robust = false;
};

HeadlessContext::HeadlessContext() : impl_(std::make_unique<Impl>()) {
    std::string tried;
    for (const auto& [display, name] : candidateDisplays()) {
        EGLint major = 0, minor = 0;
        if (eglInitialize(display, &major, &minor) != EGL_TRUE) {
            tried += name + ": eglInitialize failed (" + eglErrorText() + "); ";
            continue;
        }
        if (!hasExtension(eglQueryString(display, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context") ||
            eglBindAPI(EGL_OPENGL_API) != EGL_TRUE) {
            tried += name + ": no surfaceless OpenGL; ";
            eglTerminate(display);
            continue;
        }
        const EGLint configAttribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
        EGLConfig config = nullptr;
        EGLint configs = 0;
        eglChooseConfig(display, configAttribs, &config, 1, &configs);
        // Robust first (a GPU reset is then reported by lost() instead of undefined
        // behaviour), plain where the driver offers no robust 4.5 core context.
        EGLContext ctx = EGL_NO_CONTEXT;
        for (const bool robust : {true, false}) {
            const EGLint contextAttribs[] = {
                EGL_CONTEXT_MAJOR_VERSION,
                4,
                EGL_CONTEXT_MINOR_VERSION,
                5,
                EGL_CONTEXT_OPENGL_PROFILE_MASK,
                EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                robust ? EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY : EGL_NONE,
                EGL_LOSE_CONTEXT_ON_RESET,
                EGL_NONE};
            ctx = eglCreateContext(display, configs > 0 ? config : EGL_NO_CONFIG_KHR,
                                   EGL_NO_CONTEXT, contextAttribs);
            impl_->robust = robust;
            if (ctx != EGL_NO_CONTEXT) break;
        }
        if (ctx == EGL_NO_CONTEXT) {
            tried += name + ": no OpenGL 4.5 core context (" + eglErrorText() + "); ";
            eglTerminate(display);
            continue;
        }
        if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx) != EGL_TRUE) {
            tried += name + ": eglMakeCurrent failed (" + eglErrorText() + "); ";
            eglDestroyContext(display, ctx);
            eglTerminate(display);
            continue;
        }
        impl_->display = display;
        impl_->context = ctx;
        const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
        description_ = std::string(renderer != nullptr ? renderer : "unknown") + " (" + name + ")";
        return;
    }
    throw RenderError("no headless OpenGL 4.5 context: " +
                      (tried.empty() ? std::string("no EGL display found") : tried) +
                      " (install the GL/EGL drivers: Mesa's libegl-mesa0 and libgl1-mesa-dri, "
                      "or the NVIDIA driver)");
}

HeadlessContext::~HeadlessContext() {
    if (impl_->context != EGL_NO_CONTEXT) {
        eglMakeCurrent(impl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(impl_->display, impl_->context);
    }
    if (impl_->display != EGL_NO_DISPLAY) eglTerminate(impl_->display);
}

bool HeadlessContext::robust() const {
    return impl_->robust;
}

bool HeadlessContext::lost() const {
    return glGetGraphicsResetStatus() != GL_NO_ERROR;
}

void HeadlessContext::makeCurrent() {
    if (eglMakeCurrent(impl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, impl_->context) != EGL_TRUE)
        throw RenderError("eglMakeCurrent failed (" + eglErrorText() + ")");
}

}  // namespace cf::render
