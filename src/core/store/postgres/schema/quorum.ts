/**
 * Version 12: an approval's quorum from several groups (`approval.from`, fixed when it opens; NULL
 * for one role).
 */
export const QUORUM_V12: readonly string[] = ['ALTER TABLE approvals ADD COLUMN groups_json json'];
