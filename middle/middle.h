/*
 * middle.h - mtpar's middle stage: access summaries and dependence
 * analysis, the macro-flow graph, earliest executable conditions, the
 * macro-task graph, loop analysis and the static scheduler.  One section
 * per .c file of middle/, as in frontend.h.  The stage is being built; the
 * front end's macro tasks (frontend.h, mt.c) are its input.
 */
#ifndef MTPAR_MIDDLE_H
#define MTPAR_MIDDLE_H

#include "frontend.h"

#endif /* MTPAR_MIDDLE_H */
