/** The interface's upload limit: 80 MB per file, read as 80,000,000 bytes (the stricter reading). */
export const FILE_MAX_BYTES = 80_000_000;

/** Room for the other multipart parts and boundaries around the file. */
export const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;

export const FILE_UPLOAD_PATH = '/v1/files/upload';
