/** Files of one tenant. Placeholder: filled in by the files work. */
export class FileCollection {}
