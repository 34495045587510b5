/**
 * What --data-dir writes is its owner's only: snapshots, journals and blobs hold callback_auth_key, results
 * tokens and uploaded files. Folders labelmock makes are 0700 and files 0600, as the --tls-dir keys are.
 */
export const SECRET_FILE_MODE = 0o600;
export const SECRET_FOLDER_MODE = 0o700;
