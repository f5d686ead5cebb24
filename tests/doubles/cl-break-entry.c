/* A library preloaded into piglit's OpenCL tests that breaks two entry points, clGetMemObjectInfo
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

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem mem, cl_mem_info name, size_t size,
						   void *value, size_t *size_ret)
{
	if (broken(mem))
		return CL_OUT_OF_RESOURCES;
	cl_int (*real)(cl_mem, cl_mem_info, size_t, void *, size_t *) =
		(cl_int(*)(cl_mem, cl_mem_info, size_t, void *, size_t *))dlsym(RTLD_NEXT, "clGetMemObjectInfo");
	return real(mem, name, size, value, size_ret);
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
