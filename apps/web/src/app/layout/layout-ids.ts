/** The page's main landmark: the skip link's target. */
export const MAIN_ID = 'main-content';
