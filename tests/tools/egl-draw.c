/* egl-draw: a program that makes a surfaceless EGL context, draws with GLES and reads the
 * picture back, as an application on the store's GL would (tests/integration/gl_run.sh).
 *
 * usage: egl-draw [--gbm] [--hold]
 * It clears a 64x64 framebuffer to blue, draws two triangles that cover its upper half in
 * green, reads every pixel back and checks it. It prints, one a line:
 *   renderer=<GL_RENDERER>
 *   map=<path>         each GL library mapped into the process (/proc/self/maps), and the
 *                      Vulkan driver under Zink
 *   pixels=<right>/<all>
 * and exits 0 when every pixel is right, 1 when one is wrong, 2 when GL could not be set up.
 * --gbm: after the draw, also a GBM device, as a compositor makes one on its DRM device, so GBM's
 * backend is mapped too (libgbm is opened at run time, so no GBM headers are needed; the device
 * is on /dev/null, where Mesa's GBM falls back to software); "gbm=yes" once it is made.
 * --hold: after the lines, "ready" and wait until killed (for `tb323fu-mesa which --pid`). */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* In sanitizer builds: Mesa's drivers keep allocations until exit and are unloaded by the
 * loaders, so LeakSanitizer would report their memory (as "unknown module") and fail every
 * draw, as for the smoke program. Memory errors are still caught. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "detect_leaks=0";
}

#define SIZE 64

static const char vertex_src[] = "attribute vec2 pos;\n"
				 "void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char fragment_src[] = "precision mediump float;\n"
				   "void main() { gl_FragColor = vec4(0.0, 1.0, 0.0, 1.0); }\n";

static int setup_failed(const char *what)
{
	fprintf(stderr, "egl-draw: %s (EGL error 0x%x)\n", what, (unsigned)eglGetError());
	return 2;
}

/* The GL parts of a Mesa build by their file names. */
static int is_gl_library(const char *base)
{
	/* and the Vulkan driver Zink runs on (libvulkan_*, not the loader) */
	static const char *const prefixes[] = {"libEGL", "libGLX", "libGLES", "libGL.", "libGLdispatch",
					       "libOpenGL", "libgbm", "libglapi", "libgallium", "libvulkan_"};
	for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
		if (!strncmp(base, prefixes[i], strlen(prefixes[i])))
			return 1;
	size_t n = strlen(base);
	return (n > 7 && !strcmp(base + n - 7, "_dri.so")) || (n > 7 && !strcmp(base + n - 7, "_gbm.so"));
}

static void print_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	if (!f)
		return;
	char line[4096], last[4096] = "";
	while (fgets(line, sizeof line, f)) {
		char *path = strchr(line, '/');
		if (!path)
			continue;
		path[strcspn(path, "\n")] = '\0';
		const char *base = strrchr(path, '/') + 1;
		if (is_gl_library(base) && strcmp(path, last)) {
			printf("map=%s\n", path);
			snprintf(last, sizeof last, "%s", path);
		}
	}
	fclose(f);
}

static GLuint shader(GLenum kind, const char *src)
{
	GLuint s = glCreateShader(kind);
	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	GLint ok = 0;
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	return ok ? s : 0;
}

static int draw(void)
{
	GLuint fb, rb;
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA4, SIZE, SIZE);
	glGenFramebuffers(1, &fb);
	glBindFramebuffer(GL_FRAMEBUFFER, fb);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
		return fprintf(stderr, "egl-draw: the framebuffer is not complete\n"), -1;
	GLuint vs = shader(GL_VERTEX_SHADER, vertex_src), fs = shader(GL_FRAGMENT_SHADER, fragment_src);
	if (!vs || !fs)
		return fprintf(stderr, "egl-draw: a shader did not compile\n"), -1;
	GLuint prog = glCreateProgram();
	glAttachShader(prog, vs);
	glAttachShader(prog, fs);
	glBindAttribLocation(prog, 0, "pos");
	glLinkProgram(prog);
	GLint linked = 0;
	glGetProgramiv(prog, GL_LINK_STATUS, &linked);
	if (!linked)
		return fprintf(stderr, "egl-draw: the program did not link\n"), -1;
	/* The upper half: rows SIZE/2 … SIZE-1 have their centres above y = 0. */
	static const GLfloat quad[] = {-1, 0, 1, 0, -1, 1, 1, 0, 1, 1, -1, 1};
	glViewport(0, 0, SIZE, SIZE);
	glClearColor(0, 0, 1, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glUseProgram(prog);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glEnableVertexAttribArray(0);
	glDrawArrays(GL_TRIANGLES, 0, 6);
	glFinish();
	return glGetError() == GL_NO_ERROR ? 0 : -1;
}

/* How many pixels are right: green above the middle, blue below. */
static int check(void)
{
	static unsigned char px[SIZE * SIZE * 4];
	glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, px);
	int right = 0;
	for (int y = 0; y < SIZE; y++)
		for (int x = 0; x < SIZE; x++) {
			const unsigned char *p = px + (y * SIZE + x) * 4;
			int upper = y >= SIZE / 2;
			right += p[0] == 0 && p[1] == (upper ? 255 : 0) && p[2] == (upper ? 0 : 255) &&
				 p[3] == 255;
		}
	return right;
}

/* A GBM device on /dev/null through the libgbm the loader finds; 0 once it is made. */
static int gbm_device(void)
{
	void *lib = dlopen("libgbm.so.1", RTLD_NOW);
	void *(*create)(int) = lib ? (void *(*)(int))dlsym(lib, "gbm_create_device") : NULL;
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (!create || fd < 0 || !create(fd)) {
		fprintf(stderr, "egl-draw: no GBM device (%s)\n", lib ? "gbm_create_device failed" : dlerror());
		return -1;
	}
	printf("gbm=yes\n");
	return 0; /* the device stays until the program ends */
}

int main(int argc, char **argv)
{
	int hold = 0, gbm = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--hold"))
			hold = 1;
		else if (!strcmp(argv[i], "--gbm"))
			gbm = 1;
		else
			return fprintf(stderr, "usage: egl-draw [--gbm] [--hold]\n"), 2;
	}
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!get_display)
		return setup_failed("no eglGetPlatformDisplayEXT");
	EGLDisplay dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	EGLint major, minor;
	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor))
		return setup_failed("no surfaceless EGL display");
	static const EGLint config_attrs[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
					      EGL_NONE};
	EGLConfig config;
	EGLint n = 0;
	if (!eglBindAPI(EGL_OPENGL_ES_API) || !eglChooseConfig(dpy, config_attrs, &config, 1, &n) || n < 1)
		return setup_failed("no GLES 2 config");
	static const EGLint ctx_attrs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
	EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctx_attrs);
	if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx))
		return setup_failed("no surfaceless GLES 2 context");
	printf("renderer=%s\n", (const char *)glGetString(GL_RENDERER));
	if (draw() != 0)
		return 2;
	int right = check();
	if (gbm && gbm_device() != 0)
		return 2;
	print_maps();
	printf("pixels=%d/%d\n", right, SIZE * SIZE);
	if (hold) {
		printf("ready\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(dpy, ctx);
	eglTerminate(dpy);
	return right == SIZE * SIZE ? 0 : 1;
}
