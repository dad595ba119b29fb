/** The product's name, in one place (PRODUCT.md). */
export const PRODUCT_NAME = 'Cardbridge';
/** The signed-in shell's brand text: the product name followed by Connect (spec section 1). */
export const SHELL_BRAND = `${PRODUCT_NAME} Connect`;
export const SUPPORT_EMAIL = 'support@cardbridge.app';
export const SUPPORT_PHONE = '+1 (512) 555-0142';
export const SUPPORT_ADDRESS = '600 Congress Ave, Suite 1400, Austin, TX 78701';
/**
 * The app's green (index.css `--primary`, light and dark) in sRGB hex, for what the server writes
 * without the app's stylesheet: email buttons and links, and the unsubscribe page.
 */
export const BRAND_GREEN = '#00794d';
export const BRAND_GREEN_DARK = '#2bb985';
