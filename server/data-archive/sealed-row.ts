/** A sealed signing secret as a webhook endpoint row's two columns: the ciphertext and the id of its key. */
export const sealedRow = ({ sealed, keyId }: { sealed: string; keyId: string }) => ({
  secretCiphertext: sealed,
  secretKeyId: keyId,
});
