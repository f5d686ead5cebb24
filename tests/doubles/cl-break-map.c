/* A library preloaded into an OpenCL-CTS binary that breaks one entry point, clEnqueueMapBuffer,
 * for the command queues of one OpenCL driver only: the one whose dispatch table lives in a
 * library whose path contains $CL_BREAK_IN (a release's tree in the store). Every other driver,
 * the distribution's included, gets the real call. It stands for a release whose rusticl fails
 * the sub-tests that map buffers. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static int broken(const void *object)
{
	const char *where = getenv("CL_BREAK_IN");
	if (!where || !*where || !object)
		return 0;
	/* an ICD object starts with its driver's dispatch table */
	const void *dispatch = *(const void *const *)object;
	Dl_info info;
	return dladdr(dispatch, &info) && info.dli_fname && strstr(info.dli_fname, where);
}

typedef void *(CL_API_CALL *map_fn)(cl_command_queue, cl_mem, cl_bool, cl_map_flags, size_t,
				    size_t, cl_uint, const cl_event *, cl_event *, cl_int *);

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue queue, cl_mem buffer,
						  cl_bool blocking, cl_map_flags flags,
						  size_t offset, size_t size, cl_uint n_events,
						  const cl_event *events, cl_event *event,
						  cl_int *errcode_ret)
{
	if (broken(queue)) {
		if (errcode_ret)
			*errcode_ret = CL_OUT_OF_RESOURCES;
		return NULL;
	}
	map_fn real = (map_fn)dlsym(RTLD_NEXT, "clEnqueueMapBuffer");
	return real(queue, buffer, blocking, flags, offset, size, n_events, events, event, errcode_ret);
}
