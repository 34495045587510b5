/**
 * What a contract reads off the wire before it knows the answer is right. Every contract states what it expects
 * field by field (expect.ts and the shape helpers fail naming the field), so the suite reads answers loosely,
 * through this one type, rather than restating each answer's type before checking it. The kit's published API
 * (`MockSession`, `EventStream`, `Client` with its default body type) answers `unknown` or typed values
 * instead; this type is the suite's only loose one, and the lint refuses `any` everywhere else in contracts/.
 */
// biome-ignore lint/suspicious/noExplicitAny: the suite's one loose reading of answers not yet checked (see above)
export type Wire = any;
