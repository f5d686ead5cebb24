/* One Vulkan call the specification forbids (a buffer of size 0): the validation layer must
 * report it, which shows that the layer is active and that its messages reach the listener
 * the validation test reads (vk-messages.c). Drivers tolerate the call, so the program itself
 * succeeds. */
#include <stdio.h>
#include <vulkan/vulkan.h>

int main(void)
{
	VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_1};
	VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
	VkInstance instance;
	if (vkCreateInstance(&ici, NULL, &instance) != VK_SUCCESS)
		return 1;
	uint32_t n = 1;
	VkPhysicalDevice gpu;
	if (vkEnumeratePhysicalDevices(instance, &n, &gpu) < 0 || n == 0)
		return 1;
	float priority = 1;
	VkDeviceQueueCreateInfo q = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
				     .queueFamilyIndex = 0, .queueCount = 1, .pQueuePriorities = &priority};
	VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
				  .queueCreateInfoCount = 1, .pQueueCreateInfos = &q};
	VkDevice device;
	if (vkCreateDevice(gpu, &dci, NULL, &device) != VK_SUCCESS)
		return 1;
	VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 0,
				  .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
	VkBuffer buffer = VK_NULL_HANDLE;
	if (vkCreateBuffer(device, &bci, NULL, &buffer) == VK_SUCCESS)
		vkDestroyBuffer(device, buffer, NULL);
	vkDestroyDevice(device, NULL);
	vkDestroyInstance(instance, NULL);
	puts("done");
	return 0;
}
