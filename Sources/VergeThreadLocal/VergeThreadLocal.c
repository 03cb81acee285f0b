#include "VergeThreadLocal.h"

__thread void *verge_thread_marks = 0;
