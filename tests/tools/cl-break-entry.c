/* A library preloaded into piglit's OpenCL tests that breaks two entry points, clCreateSampler
 * and clGetKernelWorkGroupInfo, for objects of one OpenCL driver only: the one whose dispatch
 * table lives in a library whose path contains $CL_BREAK_IN (a release's tree in the store).
 * Every other driver, the distribution's included, gets the real calls. It stands for a
 * release whose rusticl fails a few tests the distribution's passes. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
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

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized,
						    cl_addressing_mode addressing,
						    cl_filter_mode filter, cl_int *err)
{
	if (broken(context)) {
		if (err)
			*err = CL_OUT_OF_RESOURCES;
		return NULL;
	}
	cl_sampler (*real)(cl_context, cl_bool, cl_addressing_mode, cl_filter_mode, cl_int *) =
		(cl_sampler(*)(cl_context, cl_bool, cl_addressing_mode, cl_filter_mode, cl_int *))
			dlsym(RTLD_NEXT, "clCreateSampler");
	return real(context, normalized, addressing, filter, err);
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
							 cl_kernel_work_group_info name,
							 size_t size, void *value, size_t *size_ret)
{
	if (broken(kernel))
		return CL_OUT_OF_RESOURCES;
	cl_int (*real)(cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t, void *, size_t *) =
		(cl_int(*)(cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t, void *, size_t *))
			dlsym(RTLD_NEXT, "clGetKernelWorkGroupInfo");
	return real(kernel, device, name, size, value, size_ret);
}
