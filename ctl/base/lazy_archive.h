/* libarchive's functions this tool calls (reading releases, writing them), loaded on the
 * first call (ctl/base/lazylib.h). Include after <archive.h> and <archive_entry.h>. */
#ifndef TB_LAZY_ARCHIVE_H
#define TB_LAZY_ARCHIVE_H

#include <archive.h>
#include <archive_entry.h>

#include "base/lazylib.h"

#define archive_entry_filetype LAZY_CALL(lazy_libarchive, archive_entry_filetype)
#define archive_entry_free LAZY_CALL(lazy_libarchive, archive_entry_free)
#define archive_entry_hardlink LAZY_CALL(lazy_libarchive, archive_entry_hardlink)
#define archive_entry_mode LAZY_CALL(lazy_libarchive, archive_entry_mode)
#define archive_entry_new LAZY_CALL(lazy_libarchive, archive_entry_new)
#define archive_entry_pathname LAZY_CALL(lazy_libarchive, archive_entry_pathname)
#define archive_entry_perm LAZY_CALL(lazy_libarchive, archive_entry_perm)
#define archive_entry_set_filetype LAZY_CALL(lazy_libarchive, archive_entry_set_filetype)
#define archive_entry_set_gid LAZY_CALL(lazy_libarchive, archive_entry_set_gid)
#define archive_entry_set_gname LAZY_CALL(lazy_libarchive, archive_entry_set_gname)
#define archive_entry_set_mtime LAZY_CALL(lazy_libarchive, archive_entry_set_mtime)
#define archive_entry_set_pathname LAZY_CALL(lazy_libarchive, archive_entry_set_pathname)
#define archive_entry_set_perm LAZY_CALL(lazy_libarchive, archive_entry_set_perm)
#define archive_entry_set_size LAZY_CALL(lazy_libarchive, archive_entry_set_size)
#define archive_entry_set_symlink LAZY_CALL(lazy_libarchive, archive_entry_set_symlink)
#define archive_entry_set_uid LAZY_CALL(lazy_libarchive, archive_entry_set_uid)
#define archive_entry_set_uname LAZY_CALL(lazy_libarchive, archive_entry_set_uname)
#define archive_entry_symlink LAZY_CALL(lazy_libarchive, archive_entry_symlink)
#define archive_errno LAZY_CALL(lazy_libarchive, archive_errno)
#define archive_error_string LAZY_CALL(lazy_libarchive, archive_error_string)
#define archive_read_data LAZY_CALL(lazy_libarchive, archive_read_data)
#define archive_read_free LAZY_CALL(lazy_libarchive, archive_read_free)
#define archive_read_new LAZY_CALL(lazy_libarchive, archive_read_new)
#define archive_read_next_header LAZY_CALL(lazy_libarchive, archive_read_next_header)
#define archive_read_open LAZY_CALL(lazy_libarchive, archive_read_open)
#define archive_read_support_filter_gzip LAZY_CALL(lazy_libarchive, archive_read_support_filter_gzip)
#define archive_read_support_filter_xz LAZY_CALL(lazy_libarchive, archive_read_support_filter_xz)
#define archive_read_support_filter_zstd LAZY_CALL(lazy_libarchive, archive_read_support_filter_zstd)
#define archive_read_support_format_raw LAZY_CALL(lazy_libarchive, archive_read_support_format_raw)
#define archive_read_support_format_tar LAZY_CALL(lazy_libarchive, archive_read_support_format_tar)
#define archive_set_error LAZY_CALL(lazy_libarchive, archive_set_error)
#define archive_write_add_filter_gzip LAZY_CALL(lazy_libarchive, archive_write_add_filter_gzip)
#define archive_write_add_filter_xz LAZY_CALL(lazy_libarchive, archive_write_add_filter_xz)
#define archive_write_add_filter_zstd LAZY_CALL(lazy_libarchive, archive_write_add_filter_zstd)
#define archive_write_close LAZY_CALL(lazy_libarchive, archive_write_close)
#define archive_write_data LAZY_CALL(lazy_libarchive, archive_write_data)
#define archive_write_free LAZY_CALL(lazy_libarchive, archive_write_free)
#define archive_write_header LAZY_CALL(lazy_libarchive, archive_write_header)
#define archive_write_new LAZY_CALL(lazy_libarchive, archive_write_new)
#define archive_write_open LAZY_CALL(lazy_libarchive, archive_write_open)
#define archive_write_set_bytes_in_last_block LAZY_CALL(lazy_libarchive, archive_write_set_bytes_in_last_block)
#define archive_write_set_filter_option LAZY_CALL(lazy_libarchive, archive_write_set_filter_option)
#define archive_write_set_format_pax_restricted LAZY_CALL(lazy_libarchive, archive_write_set_format_pax_restricted)

#endif
