/* The OpenCL smoke tests: cl.platform and cl.kernel (docs/design.md §7). */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue works on every version */
#include "smoke/smoke.h"
#include "common/envvars.h"
#include "smoke/smoke_maps.h"

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct smoke_cl {
	cl_platform_id platform;
	cl_device_id device;
	char platform_name[128];
	char device_name[128];
};

static const char kernel_source[] =
	"__kernel void smoke(__global const uint *in, __global uint *out, uint count)\n"
	"{\n"
	"	uint i = get_global_id(0);\n"
	"	if (i < count)\n"
	"		out[i] = in[i] * 3u + (i ^ 1540483477u);\n" /* smoke_transform */
	"}\n";

static const char *cl_strerror(cl_int err)
{
	switch (err) {
	case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
	case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
	case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
	case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
	case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
	case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
	case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
	case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
	case CL_INVALID_PLATFORM: return "CL_INVALID_PLATFORM";
	case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
	case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
	case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
	case CL_PLATFORM_NOT_FOUND_KHR: return "CL_PLATFORM_NOT_FOUND_KHR";
	default: return "an OpenCL error";
	}
}

static void fail_cl(struct smoke_result *r, const char *what, cl_int err)
{
	smoke_set(r, SMOKE_FAIL, "%s failed: %s (%d)", what, cl_strerror(err), (int)err);
}

/* The library that implements a platform: an ICD's platform object starts with a pointer to
 * its dispatch table, which lives in the ICD library itself (the ICD loader hands the
 * object through unchanged). */
static char *platform_library(cl_platform_id platform)
{
	void *const *dispatch = *(void *const *const *)platform;
	char *lib = smoke_library_of(dispatch);
	return lib ? lib : smoke_library_of(dispatch[1]);
}

void smoke_cl_platform(struct smoke_ctx *c, struct smoke_result *r)
{
	cl_uint n = 0;
	cl_int err = clGetPlatformIDs(0, NULL, &n);
	if (err != CL_SUCCESS || n == 0) {
		const char *vendors = getenv(ENV_OCL_ICD_VENDORS);
		smoke_set(r, SMOKE_FAIL, "the OpenCL ICD loader found no platform (%s; OCL_ICD_VENDORS=%s)",
			  cl_strerror(err), vendors ? vendors : "unset");
		return;
	}
	cl_platform_id *platforms = calloc(n, sizeof *platforms);
	if (!platforms)
		abort();
	clGetPlatformIDs(n, platforms, NULL);

	char *want = c->opt->opencl_lib ? realpath(c->opt->opencl_lib, NULL) : NULL;
	int chosen = -1, from_release = 0;
	cl_device_id device = NULL;
	for (cl_uint i = 0; i < n && chosen < 0; i++) {
		char *lib = platform_library(platforms[i]);
		int matches = !want || (lib && strcmp(lib, want) == 0);
		free(lib);
		if (!matches)
			continue;
		from_release = 1;
		cl_uint ndev = 0;
		if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &device, &ndev) == CL_SUCCESS &&
		    ndev > 0)
			chosen = (int)i;
	}

	struct smoke_libs libs;
	smoke_mapped_drivers("clIcdGetPlatformIDsKHR", &libs);
	if (smoke_check_drivers("OpenCL", &libs, c->opt->opencl_lib, r) < 0)
		goto out;
	if (chosen < 0) {
		const char *enable = getenv(ENV_RUSTICL_ENABLE);
		smoke_set(r, SMOKE_FAIL,
			  from_release ? "the release's OpenCL platform offers no device (RUSTICL_ENABLE=%s)"
				       : "no OpenCL platform comes from the release's library "
					 "(RUSTICL_ENABLE=%s)",
			  enable ? enable : "unset");
		goto out;
	}
	struct smoke_cl *cl = calloc(1, sizeof *cl);
	if (!cl)
		abort();
	cl->platform = platforms[chosen];
	cl->device = device;
	clGetPlatformInfo(cl->platform, CL_PLATFORM_NAME, sizeof cl->platform_name - 1,
			  cl->platform_name, NULL);
	clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof cl->device_name - 1, cl->device_name, NULL);
	char version[64] = "";
	clGetPlatformInfo(cl->platform, CL_PLATFORM_VERSION, sizeof version - 1, version, NULL);
	for (size_t len = strlen(version); len && version[len - 1] == ' ';)
		version[--len] = '\0';
	c->cl = cl;
	smoke_set(r, SMOKE_PASS, "%s (%s) from %s; device %s", cl->platform_name, version,
		  libs.paths[0], cl->device_name);
out:
	smoke_libs_free(&libs);
	free(want);
	free(platforms);
}

static void build_log(struct smoke_cl *cl, cl_program program, char *out, size_t size)
{
	out[0] = '\0';
	if (clGetProgramBuildInfo(program, cl->device, CL_PROGRAM_BUILD_LOG, size - 1, out, NULL) !=
	    CL_SUCCESS)
		out[0] = '\0';
	out[size - 1] = '\0';
	for (char *p = out; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
}

void smoke_cl_kernel(struct smoke_ctx *c, struct smoke_result *r)
{
	struct smoke_cl *cl = c->cl;
	if (!cl) {
		smoke_set(r, SMOKE_SKIP, "not run: cl.platform failed");
		return;
	}
	const size_t bytes = (size_t)SMOKE_ELEMENTS * sizeof(uint32_t);
	uint32_t *input = malloc(bytes), *output = calloc(SMOKE_ELEMENTS, sizeof(uint32_t));
	if (!input || !output)
		abort();
	uint32_t x = 88675123u;
	for (uint32_t i = 0; i < SMOKE_ELEMENTS; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		input[i] = x;
	}
	cl_int err;
	cl_context ctx = NULL;
	cl_command_queue queue = NULL;
	cl_program program = NULL;
	cl_kernel kernel = NULL;
	cl_mem in = NULL, out = NULL;
	cl_event done = NULL;

	cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)cl->platform, 0};
	ctx = clCreateContext(props, 1, &cl->device, NULL, NULL, &err);
	if (!ctx) {
		fail_cl(r, "clCreateContext", err);
		goto end;
	}
	queue = clCreateCommandQueue(ctx, cl->device, 0, &err);
	if (!queue) {
		fail_cl(r, "clCreateCommandQueue", err);
		goto end;
	}
	const char *src = kernel_source;
	program = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	if (!program) {
		fail_cl(r, "clCreateProgramWithSource", err);
		goto end;
	}
	err = clBuildProgram(program, 1, &cl->device, "", NULL, NULL);
	if (err != CL_SUCCESS) {
		char log[300];
		build_log(cl, program, log, sizeof log);
		smoke_set(r, SMOKE_FAIL, "building the kernel from source failed: %s (%d) %s",
			  cl_strerror(err), (int)err, log);
		goto end;
	}
	kernel = clCreateKernel(program, "smoke", &err);
	if (!kernel) {
		fail_cl(r, "clCreateKernel", err);
		goto end;
	}
	in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, input, &err);
	if (!in) {
		fail_cl(r, "clCreateBuffer", err);
		goto end;
	}
	out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
	if (!out) {
		fail_cl(r, "clCreateBuffer", err);
		goto end;
	}
	cl_uint count = SMOKE_ELEMENTS;
	if ((err = clSetKernelArg(kernel, 0, sizeof in, &in)) != CL_SUCCESS ||
	    (err = clSetKernelArg(kernel, 1, sizeof out, &out)) != CL_SUCCESS ||
	    (err = clSetKernelArg(kernel, 2, sizeof count, &count)) != CL_SUCCESS) {
		fail_cl(r, "clSetKernelArg", err);
		goto end;
	}
	size_t global = SMOKE_ELEMENTS;
	err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, &done);
	if (err != CL_SUCCESS) {
		fail_cl(r, "clEnqueueNDRangeKernel", err);
		goto end;
	}
	clFlush(queue);
	if ((err = clWaitForEvents(1, &done)) != CL_SUCCESS) {
		fail_cl(r, "clWaitForEvents", err);
		goto end;
	}
	cl_int status = -1;
	clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
	if (status != CL_COMPLETE) {
		smoke_set(r, SMOKE_FAIL, "the kernel's event ended with status %d, not CL_COMPLETE",
			  (int)status);
		goto end;
	}
	err = clEnqueueReadBuffer(queue, out, CL_TRUE, 0, bytes, output, 0, NULL, NULL);
	if (err != CL_SUCCESS) {
		fail_cl(r, "clEnqueueReadBuffer", err);
		goto end;
	}
	uint32_t bad = 0, first_bad = 0;
	for (uint32_t i = 0; i < SMOKE_ELEMENTS; i++)
		if (output[i] != smoke_transform(input[i], i) && !bad++)
			first_bad = i;
	if (bad)
		smoke_set(r, SMOKE_FAIL, "%u of %u values wrong, first at %u: 0x%08x, expected 0x%08x",
			  bad, SMOKE_ELEMENTS, first_bad, output[first_bad],
			  smoke_transform(input[first_bad], first_bad));
	else
		smoke_set(r, SMOKE_PASS, "kernel built from source on %s; %u elements, all correct",
			  cl->device_name, SMOKE_ELEMENTS);
end:
	if (done)
		clReleaseEvent(done);
	if (in)
		clReleaseMemObject(in);
	if (out)
		clReleaseMemObject(out);
	if (kernel)
		clReleaseKernel(kernel);
	if (program)
		clReleaseProgram(program);
	if (queue)
		clReleaseCommandQueue(queue);
	if (ctx)
		clReleaseContext(ctx);
	free(input);
	free(output);
}

void smoke_cl_destroy(struct smoke_ctx *c)
{
	free(c->cl);
	c->cl = NULL;
}
