/** Where the storefront serves a performer's and a category's generated picture. */
export const performerImage = (id: number) => `/media/performers/${id}.svg`;
export const categoryImage = (code: string) => `/media/categories/${code}.svg`;
