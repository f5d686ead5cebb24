/* Whose desktop it is (docs/design.md §18, "Whose crash counts"): the user of the active
 * session on seat0, as systemd-logind says (sd-login). */
#ifndef TB_SEAT_H
#define TB_SEAT_H

/* The user number of seat0's active session; -1 when there is none or logind says nothing
 * (no seat, no logind, a system without systemd). */
long seat_active_uid(void);

#endif
