// Each kind restates its base entry's conformance (see DerivedHubEntry+Sendable.swift): its
// memo `last` is touched first under the source's lock before the entry joins its hub,
// then only by the hub inside the source's one-event-at-a-time delivery; the rest is `let`.
extension PipelineEntry: @unchecked Sendable {}
// As PipelineEntry: the memo is touched only serially, the rest is immutable.
extension MapEntry: @unchecked Sendable {}
// As PipelineEntry: the memo is touched only serially, the rest is immutable.
extension OffsetEntry: @unchecked Sendable {}
// As PipelineEntry: the memo is touched only serially, the rest is immutable.
extension KeyPathEntry: @unchecked Sendable {}
// As PipelineEntry: the memo and the step's state are touched only serially.
extension StepEntry: @unchecked Sendable {}
