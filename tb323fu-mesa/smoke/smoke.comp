#version 450
// The smoke tests' compute shader. mode 0 transforms what is in `first` into `second`; mode 1
// fills `first` with a pattern derived from the index, so a dispatch of mode 0 after it can
// only produce the expected values if it saw the writes of mode 1 (vk.sync).
layout(local_size_x = 64) in;

layout(push_constant) uniform Params {
	uint mode;
	uint count;
} params;

layout(std430, set = 0, binding = 0) buffer First { uint first[]; };
layout(std430, set = 0, binding = 1) buffer Second { uint second[]; };

void main()
{
	uint i = gl_GlobalInvocationID.x;
	if (i >= params.count)
		return;
	if (params.mode == 1u)
		first[i] = i * 2654435761u + 2654435769u;
	else
		second[i] = first[i] * 3u + (i ^ 1540483477u);
}
