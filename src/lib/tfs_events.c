/* events/, set_event, available_events, set_event_pid. */
#include "lib/tfs.h"

const struct tfs_file tfs_event_files[] = {
    {0},
};
