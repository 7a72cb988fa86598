#include "webhook/admission/pod_admission_config.h"
// The parser is implemented with the pods endpoints (webhook/admission/pods/); this translation
// unit keeps the module non-empty until then.
