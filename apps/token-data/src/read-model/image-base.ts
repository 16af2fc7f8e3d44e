/** Nest token of the token image URL prefix (config.imageBaseUrl: CDN, public URL, or '' for relative paths). */
export const IMAGE_BASE_URL = Symbol('IMAGE_BASE_URL');
