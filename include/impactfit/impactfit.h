/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — umbrella header: include this to get the whole public API. */
#ifndef IMPACTFIT_IMPACTFIT_H
#define IMPACTFIT_IMPACTFIT_H

#include "impactfit/common.h"
#include "impactfit/impact.h"
#include "impactfit/inverse.h"
#include "impactfit/surrogate.h"
#include "impactfit/committed.h"
#include "impactfit/multibody.h"
#include "impactfit/hc.h"
#include "impactfit/formulas.h"
#include "impactfit/dem.h"
#include "impactfit/sweep.h"
#include "impactfit/table.h"
#include "impactfit/fit.h"
#include "impactfit/fitfile.h"
#include "impactfit/sweep_io.h"
#include "impactfit/codegen.h"
#include "impactfit/identify.h"
#include "impactfit/law.h"
#include "impactfit/stepper.h"
#include "impactfit/codes.h"
#include "impactfit/drop.h"
#include "impactfit/code_drop.h"
#include "impactfit/mixing.h"
#include "impactfit/version.h"

#endif
