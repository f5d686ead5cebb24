# shellcheck shell=sh
# /etc/profile.d/tb323fu-mesa.sh: login shells get the Mesa build that `tb323fu-ctl mesa on`
# switched on, with the same variables systemd's environment.d gives the session: both read the
# store's env.conf, which is empty while switched off, and its flatpak.conf (the Flatpak
# extension the flatpak command mounts for the session's applications, empty while off).
#
# The file is read line by line rather than sourced: a login must not run whatever a store file
# holds, and a shell that already got the library directory from the session keeps it once.
# tb323fu-mesa-toolchain-program: ours (make install replaces only files with this mark)
_tb323fu_store=${TB323FU_MESA_DIR:-/var/lib/tb323fu/mesa}
for _tb323fu_conf in "$_tb323fu_store/env.conf" "$_tb323fu_store/flatpak.conf"; do
	[ -r "$_tb323fu_conf" ] || continue
	while IFS= read -r _tb323fu_line || [ -n "$_tb323fu_line" ]; do
		case $_tb323fu_line in
		'' | '#'*) ;;
		LD_LIBRARY_PATH=?*'${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}')
			_tb323fu_dir=${_tb323fu_line#LD_LIBRARY_PATH=}
			_tb323fu_dir=${_tb323fu_dir%'${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}'}
			case :${LD_LIBRARY_PATH:-}: in
			*:"$_tb323fu_dir":*) ;;
			*) LD_LIBRARY_PATH=$_tb323fu_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ;;
			esac
			export LD_LIBRARY_PATH
			;;
		VK_DRIVER_FILES=* | VK_ICD_FILENAMES=* | OCL_ICD_VENDORS=* | RUSTICL_ENABLE=* | FLATPAK_GL_DRIVERS=* | \
			__EGL_VENDOR_LIBRARY_FILENAMES=* | __GLX_VENDOR_LIBRARY_NAME=* | LIBGL_DRIVERS_PATH=* | \
			GBM_BACKENDS_PATH=* | MESA_LOADER_DRIVER_OVERRIDE=* | LIBGL_ALWAYS_SOFTWARE=*)
			# only the variables a release selects (GL's when `on --gl` gave the session GL) and
			# flatpak's choice of GL extension: never LD_PRELOAD, PATH or the like
			# shellcheck disable=SC2163 # the line is NAME=VALUE: export assigns it
			export "$_tb323fu_line"
			;;
		esac
	done <"$_tb323fu_conf"
done
unset _tb323fu_store _tb323fu_conf _tb323fu_line _tb323fu_dir
