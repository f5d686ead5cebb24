/* libsystemd's journal functions this tool calls (crash evidence, docs/design.md §18), loaded
 * on the first call (ctl/base/lazylib.h). Include after <systemd/sd-journal.h>. */
#ifndef TB_LAZY_SYSTEMD_H
#define TB_LAZY_SYSTEMD_H

#include <systemd/sd-journal.h>

#include "base/lazylib.h"

#define sd_journal_add_disjunction LAZY_CALL(lazy_libsystemd, sd_journal_add_disjunction)
#define sd_journal_add_match LAZY_CALL(lazy_libsystemd, sd_journal_add_match)
#define sd_journal_close LAZY_CALL(lazy_libsystemd, sd_journal_close)
#define sd_journal_get_cursor LAZY_CALL(lazy_libsystemd, sd_journal_get_cursor)
#define sd_journal_get_data LAZY_CALL(lazy_libsystemd, sd_journal_get_data)
#define sd_journal_get_realtime_usec LAZY_CALL(lazy_libsystemd, sd_journal_get_realtime_usec)
#define sd_journal_get_usage LAZY_CALL(lazy_libsystemd, sd_journal_get_usage)
#define sd_journal_next LAZY_CALL(lazy_libsystemd, sd_journal_next)
#define sd_journal_open LAZY_CALL(lazy_libsystemd, sd_journal_open)
#define sd_journal_open_files LAZY_CALL(lazy_libsystemd, sd_journal_open_files)
#define sd_journal_previous LAZY_CALL(lazy_libsystemd, sd_journal_previous)
#define sd_journal_seek_cursor LAZY_CALL(lazy_libsystemd, sd_journal_seek_cursor)
#define sd_journal_seek_head LAZY_CALL(lazy_libsystemd, sd_journal_seek_head)
#define sd_journal_seek_realtime_usec LAZY_CALL(lazy_libsystemd, sd_journal_seek_realtime_usec)
#define sd_journal_set_data_threshold LAZY_CALL(lazy_libsystemd, sd_journal_set_data_threshold)
#define sd_journal_test_cursor LAZY_CALL(lazy_libsystemd, sd_journal_test_cursor)

#endif
