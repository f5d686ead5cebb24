/* The GL smoke tests (docs/design.md §7): a surfaceless EGL context through glvnd's libEGL, a
 * GLES draw read back pixel by pixel, the renderer, and the libraries mapped proving they are
 * the release's. gl.draw runs on the release's own gallium driver in this process; gl.zink runs
 * the same draw in a child started by the launcher's `run --gl zink`, so its environment is
 * exactly what an application on Zink gets.
 *
 * libEGL is opened at run time and GL's functions come from eglGetProcAddress: the program
 * needs no GL library to start, and a machine without GL still runs the Vulkan and OpenCL
 * tests. */
#include "common/exitcode.h"
#include "smoke/smoke.h"
#include "smoke/smoke_maps.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The picture: a SIZE x SIZE framebuffer cleared to blue, its upper half drawn green. */
#define SIZE 64
#define PIXELS (SIZE * SIZE)

/* EGL's and GL's functions used, by name. */
#define EGL_FUNCS(X)                                                                                \
	X(PFNEGLGETPROCADDRESSPROC, eglGetProcAddress)                                              \
	X(PFNEGLGETERRORPROC, eglGetError)                                                          \
	X(PFNEGLINITIALIZEPROC, eglInitialize)                                                      \
	X(PFNEGLBINDAPIPROC, eglBindAPI)                                                            \
	X(PFNEGLCHOOSECONFIGPROC, eglChooseConfig)                                                  \
	X(PFNEGLCREATECONTEXTPROC, eglCreateContext)                                                \
	X(PFNEGLMAKECURRENTPROC, eglMakeCurrent)                                                    \
	X(PFNEGLDESTROYCONTEXTPROC, eglDestroyContext)                                              \
	X(PFNEGLTERMINATEPROC, eglTerminate)
#define GL_FUNCS(X)                                                                                 \
	X(PFNGLGETSTRINGPROC, glGetString)                                                          \
	X(PFNGLGETERRORPROC, glGetError)                                                            \
	X(PFNGLGENRENDERBUFFERSPROC, glGenRenderbuffers)                                            \
	X(PFNGLBINDRENDERBUFFERPROC, glBindRenderbuffer)                                            \
	X(PFNGLRENDERBUFFERSTORAGEPROC, glRenderbufferStorage)                                      \
	X(PFNGLGENFRAMEBUFFERSPROC, glGenFramebuffers)                                              \
	X(PFNGLBINDFRAMEBUFFERPROC, glBindFramebuffer)                                              \
	X(PFNGLFRAMEBUFFERRENDERBUFFERPROC, glFramebufferRenderbuffer)                              \
	X(PFNGLCHECKFRAMEBUFFERSTATUSPROC, glCheckFramebufferStatus)                                \
	X(PFNGLCREATESHADERPROC, glCreateShader)                                                    \
	X(PFNGLSHADERSOURCEPROC, glShaderSource)                                                    \
	X(PFNGLCOMPILESHADERPROC, glCompileShader)                                                  \
	X(PFNGLGETSHADERIVPROC, glGetShaderiv)                                                      \
	X(PFNGLCREATEPROGRAMPROC, glCreateProgram)                                                  \
	X(PFNGLATTACHSHADERPROC, glAttachShader)                                                    \
	X(PFNGLBINDATTRIBLOCATIONPROC, glBindAttribLocation)                                        \
	X(PFNGLLINKPROGRAMPROC, glLinkProgram)                                                      \
	X(PFNGLGETPROGRAMIVPROC, glGetProgramiv)                                                    \
	X(PFNGLUSEPROGRAMPROC, glUseProgram)                                                        \
	X(PFNGLVIEWPORTPROC, glViewport)                                                            \
	X(PFNGLCLEARCOLORPROC, glClearColor)                                                        \
	X(PFNGLCLEARPROC, glClear)                                                                  \
	X(PFNGLVERTEXATTRIBPOINTERPROC, glVertexAttribPointer)                                      \
	X(PFNGLENABLEVERTEXATTRIBARRAYPROC, glEnableVertexAttribArray)                              \
	X(PFNGLDRAWARRAYSPROC, glDrawArrays)                                                        \
	X(PFNGLFINISHPROC, glFinish)                                                                \
	X(PFNGLREADPIXELSPROC, glReadPixels)

#define DECLARE(type, name) type name;
struct gl {
	void *lib;
	EGLDisplay dpy;
	EGLContext ctx;
	EGL_FUNCS(DECLARE)
	GL_FUNCS(DECLARE)
};

/* Opens glvnd's libEGL and finds every function; -1 with the reason in r. */
static int gl_load(struct gl *g, struct smoke_result *r)
{
	memset(g, 0, sizeof *g);
	g->lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!g->lib) {
		smoke_set(r, SMOKE_FAIL, "cannot open glvnd's libEGL.so.1: %.300s (install libegl1)", dlerror());
		return -1;
	}
	const char *missing = NULL;
#define FROM_LIB(type, name)                                                                        \
	if (!(g->name = (type)dlsym(g->lib, #name)) && !missing)                                    \
		missing = #name;
	EGL_FUNCS(FROM_LIB)
#define FROM_EGL(type, name)                                                                        \
	if (!missing && !(g->name = (type)g->eglGetProcAddress(#name)))                             \
		missing = #name;
	GL_FUNCS(FROM_EGL)
	if (missing) {
		smoke_set(r, SMOKE_FAIL, "glvnd's libEGL.so.1 gives no %s", missing);
		return -1;
	}
	return 0;
}

static void gl_close(struct gl *g)
{
	if (g->ctx) {
		g->eglMakeCurrent(g->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
		g->eglDestroyContext(g->dpy, g->ctx);
	}
	if (g->dpy)
		g->eglTerminate(g->dpy);
	/* libEGL stays loaded: its vendor library keeps threads and atexit handlers */
}

/* A surfaceless display and a current GLES 2 context without a surface. */
static int gl_context(struct gl *g, struct smoke_result *r)
{
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)g->eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!get_display) {
		smoke_set(r, SMOKE_FAIL, "libEGL offers no eglGetPlatformDisplayEXT");
		return -1;
	}
	g->dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	EGLint major, minor;
	if (g->dpy == EGL_NO_DISPLAY || !g->eglInitialize(g->dpy, &major, &minor)) {
		smoke_set(r, SMOKE_FAIL, "no surfaceless EGL display (EGL error 0x%x): the EGL vendor "
			  "or its gallium driver did not start", (unsigned)g->eglGetError());
		g->dpy = NULL;
		return -1;
	}
	static const EGLint config_attrs[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_NONE};
	static const EGLint ctx_attrs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
	EGLConfig config;
	EGLint n = 0;
	if (!g->eglBindAPI(EGL_OPENGL_ES_API) || !g->eglChooseConfig(g->dpy, config_attrs, &config, 1, &n) || n < 1) {
		smoke_set(r, SMOKE_FAIL, "EGL %d.%d offers no GLES 2 configuration (EGL error 0x%x)", major,
			  minor, (unsigned)g->eglGetError());
		return -1;
	}
	g->ctx = g->eglCreateContext(g->dpy, config, EGL_NO_CONTEXT, ctx_attrs);
	if (g->ctx == EGL_NO_CONTEXT || !g->eglMakeCurrent(g->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, g->ctx)) {
		smoke_set(r, SMOKE_FAIL, "no current surfaceless GLES 2 context (EGL error 0x%x)",
			  (unsigned)g->eglGetError());
		g->ctx = NULL;
		return -1;
	}
	return 0;
}

static GLuint shader(const struct gl *g, GLenum kind, const char *src)
{
	GLuint s = g->glCreateShader(kind);
	g->glShaderSource(s, 1, &src, NULL);
	g->glCompileShader(s);
	GLint ok = 0;
	g->glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	return ok ? s : 0;
}

/* Clears to blue and draws two green triangles over the upper half (rows SIZE/2 and up have
 * their centres above y = 0), into a renderbuffer of its own. */
static int gl_draw(const struct gl *g, struct smoke_result *r)
{
	static const char vs_src[] = "attribute vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
	static const char fs_src[] = "precision mediump float;\nvoid main() { gl_FragColor = vec4(0.0, 1.0, 0.0, 1.0); }\n";
	static const GLfloat quad[] = {-1, 0, 1, 0, -1, 1, 1, 0, 1, 1, -1, 1};
	GLuint fb, rb;
	g->glGenRenderbuffers(1, &rb);
	g->glBindRenderbuffer(GL_RENDERBUFFER, rb);
	g->glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA4, SIZE, SIZE);
	g->glGenFramebuffers(1, &fb);
	g->glBindFramebuffer(GL_FRAMEBUFFER, fb);
	g->glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	if (g->glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
		smoke_set(r, SMOKE_FAIL, "the framebuffer is not complete");
		return -1;
	}
	GLuint vs = shader(g, GL_VERTEX_SHADER, vs_src), fs = shader(g, GL_FRAGMENT_SHADER, fs_src);
	GLuint prog = g->glCreateProgram();
	GLint linked = 0;
	if (vs && fs) {
		g->glAttachShader(prog, vs);
		g->glAttachShader(prog, fs);
		g->glBindAttribLocation(prog, 0, "pos");
		g->glLinkProgram(prog);
		g->glGetProgramiv(prog, GL_LINK_STATUS, &linked);
	}
	if (!linked) {
		smoke_set(r, SMOKE_FAIL, "the shaders did not %s", vs && fs ? "link" : "compile");
		return -1;
	}
	g->glViewport(0, 0, SIZE, SIZE);
	g->glClearColor(0, 0, 1, 1);
	g->glClear(GL_COLOR_BUFFER_BIT);
	g->glUseProgram(prog);
	g->glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	g->glEnableVertexAttribArray(0);
	g->glDrawArrays(GL_TRIANGLES, 0, 6);
	g->glFinish();
	GLenum err = g->glGetError();
	if (err != GL_NO_ERROR) {
		smoke_set(r, SMOKE_FAIL, "the draw ended with GL error 0x%x", (unsigned)err);
		return -1;
	}
	return 0;
}

/* Reads every pixel back: how many are right; the first wrong one in *bad (-1: none). */
static int gl_check(const struct gl *g, int *bad, unsigned char got[4])
{
	static unsigned char px[PIXELS * 4];
	memset(px, 0x5a, sizeof px);
	g->glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, px);
	int right = 0;
	*bad = -1;
	for (int i = 0; i < PIXELS; i++) {
		const unsigned char *p = px + i * 4;
		int upper = i / SIZE >= SIZE / 2;
		int ok = p[0] == 0 && p[1] == (upper ? 255 : 0) && p[2] == (upper ? 0 : 255) && p[3] == 255;
		right += ok;
		if (!ok && *bad < 0) {
			*bad = i;
			memcpy(got, p, 4);
		}
	}
	return right;
}

/* GL's libraries by file name (not glvnd's dispatchers): EGL and GLX vendors, GBM and its
 * backends, glapi, libgallium, the DRI drivers. */
static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), k = strlen(end);
	return n > k && !strcmp(s + n - k, end);
}
static int is_gl_part(const char *name)
{
	static const char *const prefixes[] = {"libEGL_", "libGLX_", "libgbm.so", "libglapi.so", "libgallium"};
	for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return 1;
	return ends_with(name, "_dri.so") || ends_with(name, "_gbm.so");
}
/* libgallium (Mesa 25's layout) or a *_dri.so other than Mesa 25's stub, libdril, which
 * holds no driver */
static int is_gallium(const char *name)
{
	return !strncmp(name, "libgallium", 10) ||
	       (ends_with(name, "_dri.so") && strncmp(name, "libdril", 7));
}

/* The mapped libraries prove it was the release's GL: its EGL vendor library and no other,
 * every GL library from its GL folder, a gallium driver among them. Says what it found in
 * from (the file names of the EGL vendor and the gallium driver, "A, B"). */
static int gl_mapped(const struct smoke_options *opt, char *from, size_t n, struct smoke_result *r)
{
	struct smoke_libs egl, parts, gallium;
	smoke_mapped_drivers("__egl_Main", &egl);
	int rc = smoke_check_drivers("EGL vendor", &egl, opt->egl_lib, r);
	smoke_mapped_named(is_gl_part, &parts);
	smoke_mapped_named(is_gallium, &gallium);
	char *dir = realpath(opt->gl_dir, NULL);
	size_t len = dir ? strlen(dir) : 0;
	for (int i = 0; !rc && i < parts.n; i++)
		if (!dir || strncmp(parts.paths[i], dir, len) || parts.paths[i][len] != '/') {
			smoke_set(r, SMOKE_FAIL, "%s is mapped, a GL library from outside the release's %s",
				  parts.paths[i], opt->gl_dir);
			rc = -1;
		}
	if (!rc && gallium.n == 0) {
		smoke_set(r, SMOKE_FAIL, "no gallium driver (a *_dri.so or libgallium) is mapped");
		rc = -1;
	}
	if (!rc)
		snprintf(from, n, "%s, %s", strrchr(egl.paths[0], '/') + 1, strrchr(gallium.paths[0], '/') + 1);
	free(dir);
	smoke_libs_free(&egl);
	smoke_libs_free(&parts);
	smoke_libs_free(&gallium);
	return rc;
}

/* One draw and its checks; zink: the renderer must be Zink's and the Vulkan driver under it
 * the release's, else it must not be Zink's. */
static void gl_run(const struct smoke_options *opt, int zink, struct smoke_result *r)
{
	struct gl g;
	if (gl_load(&g, r) || gl_context(&g, r) || gl_draw(&g, r)) {
		gl_close(&g);
		return;
	}
	const char *renderer = (const char *)g.glGetString(GL_RENDERER);
	char shown[160];
	snprintf(shown, sizeof shown, "%s", renderer ? renderer : "(none)");
	int bad;
	unsigned char got[4] = {0};
	int right = gl_check(&g, &bad, got);
	int on_zink = !strncmp(shown, "zink", 4);
	char from[300] = "";
	if (right != PIXELS) {
		smoke_set(r, SMOKE_FAIL, "%d of %d pixels are right; pixel (%d, %d) is %u,%u,%u,%u (renderer %s)",
			  right, PIXELS, bad % SIZE, bad / SIZE, got[0], got[1], got[2], got[3], shown);
	} else if (on_zink != zink) {
		smoke_set(r, SMOKE_FAIL, "the renderer is %s, %s", shown,
			  zink ? "not Zink" : "Zink where the release's own gallium driver was asked for");
	} else if (gl_mapped(opt, from, sizeof from, r) == 0) {
		struct smoke_libs vk = {0};
		if (zink) {
			smoke_mapped_drivers("vk_icdGetInstanceProcAddr", &vk);
			if (smoke_check_drivers("Vulkan", &vk, opt->vulkan_lib, r) == 0)
				smoke_set(r, SMOKE_PASS, "%s: %d pixels right; the release's %s, %s",
					  shown, PIXELS, from, strrchr(vk.paths[0], '/') + 1);
		} else {
			smoke_set(r, SMOKE_PASS, "%s: %d pixels right; the release's %s", shown, PIXELS, from);
		}
		smoke_libs_free(&vk);
	}
	gl_close(&g);
}

void smoke_gl_draw(struct smoke_ctx *c, struct smoke_result *r)
{
	gl_run(c->opt, 0, r);
}

int smoke_gl_zink_child(const struct smoke_options *opt, FILE *out)
{
	struct smoke_result r = {.status = SMOKE_FAIL};
	gl_run(opt, 1, &r);
	fprintf(out, "%s %s\n", r.status == SMOKE_PASS ? "pass" : "fail", r.detail);
	fflush(out);
	return r.status == SMOKE_PASS ? 0 : 1;
}

/* Runs argv with its stdout into line (its first line, n bytes); 0 with its wait status in
 * *status, or -1 with errno when it could not be started. */
static int first_line_of(char *const argv[], char *line, size_t n, int *status)
{
	int fds[2];
	if (pipe(fds) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execv(argv[0], argv);
		fprintf(stderr, "tb323fu-mesa-smoke: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(TB_ENOT_FOUND);
	}
	int err = errno;
	close(fds[1]);
	FILE *in = pid > 0 ? fdopen(fds[0], "r") : NULL;
	line[0] = '\0';
	if (in && !fgets(line, (int)n, in))
		line[0] = '\0';
	if (in)
		fclose(in);
	else
		close(fds[0]);
	if (pid < 0 || waitpid(pid, status, 0) < 0) {
		errno = pid < 0 ? err : errno;
		return -1;
	}
	line[strcspn(line, "\n")] = '\0';
	return 0;
}

/* gl.zink: this program again, as `tb323fu-mesa --store S run --version V --gl zink` starts
 * it, with --zink-child; its one line is the result. */
void smoke_gl_zink(struct smoke_ctx *c, struct smoke_result *r)
{
	const struct smoke_options *opt = c->opt;
	/* this program's file by name: /proc/self/exe would be the launcher's in the child */
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0 || !opt->version) {
		smoke_set(r, SMOKE_FAIL, "cannot name this program or its version for the run on Zink");
		return;
	}
	self[n] = '\0';
	char *argv[] = {(char *)opt->zink_launcher, "--store", (char *)opt->zink_store, "run", "--version",
			(char *)opt->version, "--gl", "zink", self, "--zink-child",
			"--egl-lib", (char *)opt->egl_lib, "--gl-dir", (char *)opt->gl_dir,
			"--vulkan-lib", (char *)(opt->vulkan_lib ? opt->vulkan_lib : ""), NULL};
	char line[sizeof r->detail + 8];
	int status = 0;
	if (first_line_of(argv, line, sizeof line, &status) != 0)
		smoke_set(r, SMOKE_FAIL, "cannot start the run on Zink: %s", strerror(errno));
	else if (!strncmp(line, "pass ", 5) && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		smoke_set(r, SMOKE_PASS, "%s", line + 5);
	else if (!strncmp(line, "fail ", 5))
		smoke_set(r, SMOKE_FAIL, "%s", line + 5);
	else if (WIFSIGNALED(status))
		smoke_set(r, SMOKE_FAIL, "the run on Zink crashed with signal %d", WTERMSIG(status));
	else
		smoke_set(r, SMOKE_FAIL, "the run on Zink (tb323fu-mesa run --gl zink) ended with status %d "
			  "without a result", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}
